import { describe, expect, it } from 'vitest';
import { defaultRetention, parseServeOptions, ServeUsageError } from '../../../main/app/serve-options';

const retention = defaultRetention;

describe('parseServeOptions', () => {
  it('defaults to a free port, 2,000 embedded pods, recording and opening a browser', () => {
    expect(parseServeOptions([])).toEqual({
      port: 0,
      embedded: false,
      pods: 2000,
      open: true,
      record: true,
      crashLogs: true,
      retention,
    });
  });

  it('reads where recordings live, whether to record, and whether to keep crash logs', () => {
    expect(parseServeOptions(['--data-dir', '/tmp/kubetide', '--no-record', '--no-crash-logs'])).toEqual({
      port: 0,
      embedded: false,
      pods: 2000,
      open: true,
      dataDirectory: '/tmp/kubetide',
      record: false,
      crashLogs: false,
      retention,
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
      crashLogs: true,
      retention,
    });
  });

  it('refuses unknown options and bad numbers with a reason', () => {
    expect(() => parseServeOptions(['--prot', '1'])).toThrow(ServeUsageError);
    expect(() => parseServeOptions(['--port', 'http'])).toThrow(/--port needs a whole number/);
    expect(() => parseServeOptions(['--port', '70000'])).toThrow(/between 0 and 65535/);
    expect(() => parseServeOptions(['--context'])).toThrow(/--context needs a value/);
  });

  it('keeps a week and 2 GiB of history by default, and reads both limits', () => {
    expect(defaultRetention).toEqual({ maxAgeMs: 7 * 86_400_000, maxBytes: 2048 * 1024 * 1024 });
    const options = parseServeOptions(['--keep-days', '30', '--keep-size=512']);
    expect(options !== 'help' && options.retention).toEqual({
      maxAgeMs: 30 * 86_400_000,
      maxBytes: 512 * 1024 * 1024,
    });
    expect(() => parseServeOptions(['--keep-days', '0'])).toThrow(/between 1 and 3650/);
    expect(() => parseServeOptions(['--keep-size', 'lots'])).toThrow(/--keep-size needs a whole number/);
  });

  it('answers --help', () => {
    expect(parseServeOptions(['--help'])).toBe('help');
  });
});
