import { describe, expect, it } from 'vitest';
import { parseServeOptions, ServeUsageError } from '../../../main/app/serve-options';

describe('parseServeOptions', () => {
  it('defaults to a free port, 2,000 embedded pods, recording and opening a browser', () => {
    expect(parseServeOptions([])).toEqual({ port: 0, embedded: false, pods: 2000, open: true, record: true });
  });

  it('reads where recordings live and whether to record', () => {
    expect(parseServeOptions(['--data-dir', '/tmp/kubetide', '--no-record'])).toEqual({
      port: 0,
      embedded: false,
      pods: 2000,
      open: true,
      dataDirectory: '/tmp/kubetide',
      record: false,
    });
  });

  it('reads every option in both spellings', () => {
    expect(
      parseServeOptions([
        '--port',
        '8080',
        '--kubeconfig=/tmp/k',
        '--context',
        'prod',
        '--embedded',
        '--pods=500',
        '--no-open',
      ]),
    ).toEqual({
      port: 8080,
      kubeconfig: '/tmp/k',
      context: 'prod',
      embedded: true,
      pods: 500,
      open: false,
      record: true,
    });
  });

  it('refuses unknown options and bad numbers with a reason', () => {
    expect(() => parseServeOptions(['--prot', '1'])).toThrow(ServeUsageError);
    expect(() => parseServeOptions(['--port', 'http'])).toThrow(/--port needs a whole number/);
    expect(() => parseServeOptions(['--port', '70000'])).toThrow(/between 0 and 65535/);
    expect(() => parseServeOptions(['--context'])).toThrow(/--context needs a value/);
  });

  it('answers --help', () => {
    expect(parseServeOptions(['--help'])).toBe('help');
  });
});
