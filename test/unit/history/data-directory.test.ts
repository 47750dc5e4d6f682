// Where recordings are kept: the app's data directory per OS, one file per context.
import { describe, expect, it } from 'vitest';
import { dataDirectory, recordingFile } from '../../../main/history/data-directory';

describe('dataDirectory', () => {
  it('follows XDG_DATA_HOME on Linux, else ~/.local/share', () => {
    expect(dataDirectory({ platform: 'linux', env: { XDG_DATA_HOME: '/data' }, home: '/home/u' })).toBe(
      '/data/kubetide',
    );
    expect(dataDirectory({ platform: 'linux', env: {}, home: '/home/u' })).toBe(
      '/home/u/.local/share/kubetide',
    );
  });

  it('uses Application Support on macOS and %APPDATA% on Windows', () => {
    expect(dataDirectory({ platform: 'darwin', env: {}, home: '/Users/u' })).toBe(
      '/Users/u/Library/Application Support/Kubetide',
    );
    expect(
      dataDirectory({
        platform: 'win32',
        env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' },
        home: 'C:\\Users\\u',
      }),
    ).toBe('C:\\Users\\u\\AppData\\Roaming\\Kubetide');
  });

  it('yields to an override', () => {
    expect(dataDirectory({ platform: 'linux', env: { XDG_DATA_HOME: '/data' }, override: '/custom' })).toBe(
      '/custom',
    );
  });
});

describe('recordingFile', () => {
  it('gives each context its own file, whatever characters its name holds', () => {
    const arn = recordingFile('/d', 'arn:aws:eks:eu-west-1:1234:cluster/prod');
    expect(arn).toBe('/d/recordings/arn%3Aaws%3Aeks%3Aeu-west-1%3A1234%3Acluster%2Fprod.kubetide');
    expect(recordingFile('/d', 'a/b')).not.toBe(recordingFile('/d', 'a_b'));
    expect(recordingFile('/d', '../up')).toBe('/d/recordings/..%2Fup.kubetide');
  });
});
