import { describe, expect, it } from 'vitest';
import { findElectron } from '../../../main/app/launch';

describe('npm start', () => {
  it('falls back to browser mode when the Electron binary is not installed', () => {
    const result = findElectron({ DISPLAY: ':0' }, 'linux', () => {
      throw new Error('Electron failed to install correctly');
    });
    expect(result).toEqual({ reason: expect.stringContaining('not installed') });
  });

  it('falls back when the binary path does not exist', () => {
    expect(findElectron({ DISPLAY: ':0' }, 'linux', () => '/nonexistent/electron')).toEqual({
      reason: expect.stringContaining('/nonexistent/electron'),
    });
  });

  it('falls back on Linux without a display', () => {
    expect(findElectron({}, 'linux', () => process.execPath)).toEqual({
      reason: expect.stringContaining('no display'),
    });
  });

  it('uses Electron when the binary and a display are there', () => {
    expect(findElectron({ DISPLAY: ':0' }, 'linux', () => process.execPath)).toEqual({
      executable: process.execPath,
    });
    expect(findElectron({}, 'darwin', () => process.execPath)).toEqual({ executable: process.execPath });
  });
});
