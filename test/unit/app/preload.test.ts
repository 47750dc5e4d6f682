import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ipcChannels, preloadGlobalName } from '../../../shared/preload-api';

const electron = vi.hoisted(() => ({
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { send: vi.fn(), once: vi.fn(), on: vi.fn(), invoke: vi.fn() },
}));
vi.mock('electron', () => electron);

async function loadPreload(): Promise<Record<string, unknown>> {
  vi.resetModules();
  electron.contextBridge.exposeInMainWorld.mockClear();
  await import('../../../main/app/preload/preload');
  expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
  const [name, api] = electron.contextBridge.exposeInMainWorld.mock.calls[0]!;
  expect(name).toBe(preloadGlobalName);
  return api as Record<string, unknown>;
}

describe('preload', () => {
  beforeEach(() => {
    electron.ipcRenderer.send.mockClear();
    electron.ipcRenderer.once.mockClear();
  });

  it('exposes exactly requestPort and platform, and never ipcRenderer', async () => {
    const api = await loadPreload();
    expect(Object.keys(api).sort()).toEqual(['platform', 'requestPort']);
    expect(typeof api.requestPort).toBe('function');
    expect(Object.values(api)).not.toContain(electron.ipcRenderer);
    expect(Object.values(api)).not.toContain(electron.ipcRenderer.send);
  });

  it('forwards the bridge port to the main world with the caller nonce, without the IPC event', async () => {
    const api = (await loadPreload()) as { requestPort(nonce: string): void };
    const postMessage = vi.fn();
    vi.stubGlobal('window', { postMessage, location: { origin: 'kubetide://app' } });
    api.requestPort('n-1');
    expect(electron.ipcRenderer.send).toHaveBeenCalledWith(ipcChannels.requestPort);
    const [channel, listener] = electron.ipcRenderer.once.mock.calls[0]!;
    expect(channel).toBe(ipcChannels.bridgePort);
    const port = { fake: 'port' };
    (listener as (event: unknown) => void)({ ports: [port], sender: { secret: 'ipc internals' } });
    expect(postMessage).toHaveBeenCalledWith({ kubetideBridgePort: 'n-1' }, 'kubetide://app', [port]);
    vi.unstubAllGlobals();
  });

  it('refuses a missing or oversized nonce without touching IPC', async () => {
    const api = (await loadPreload()) as { requestPort(nonce: unknown): void };
    expect(() => api.requestPort('')).toThrow(/nonce/);
    expect(() => api.requestPort('x'.repeat(129))).toThrow(/nonce/);
    expect(() => api.requestPort(42)).toThrow(/nonce/);
    expect(electron.ipcRenderer.send).not.toHaveBeenCalled();
  });
});
