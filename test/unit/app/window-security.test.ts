import { describe, expect, it, vi } from 'vitest';
import type { BrowserWindow, Session } from 'electron';
import {
  appOrigin,
  hardenSession,
  hardenWebContents,
  isAppUrl,
  secureWebPreferences,
} from '../../../main/app/window-security';
import { checkSender } from '../../../main/app/ipc-guard';

function fakeWindow() {
  const listeners = new Map<string, (event: { preventDefault(): void }, ...rest: unknown[]) => void>();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  const window = {
    webContents: {
      on: (name: string, listener: (event: { preventDefault(): void }, ...rest: unknown[]) => void) =>
        listeners.set(name, listener),
      setWindowOpenHandler: (handler: typeof openHandler) => (openHandler = handler),
    },
  };
  return {
    window: window as unknown as BrowserWindow,
    listeners,
    open: (url: string) => openHandler!({ url }),
  };
}

describe('window security', () => {
  it('turns on every renderer isolation setting of the checklist', () => {
    const preferences = secureWebPreferences('/app/preload.cjs');
    expect(preferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
  });

  it('prevents navigation, redirects and webviews, and denies new windows', () => {
    const { window, listeners, open } = fakeWindow();
    hardenWebContents(window.webContents as never, () => {});
    for (const name of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const preventDefault = vi.fn();
      listeners.get(name)!({ preventDefault }, 'https://evil.example/');
      expect(preventDefault, name).toHaveBeenCalled();
    }
    expect(open('https://evil.example/')).toEqual({ action: 'deny' });
  });

  it('refuses every permission and sets a strict CSP on responses', () => {
    let request:
      ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
    let check: (() => boolean) | undefined;
    let device: (() => boolean) | undefined;
    let headers:
      | ((
          details: { responseHeaders?: Record<string, string[]> },
          callback: (response: { responseHeaders: Record<string, string[]> }) => void,
        ) => void)
      | undefined;
    const session = {
      setPermissionRequestHandler: (handler: typeof request) => (request = handler),
      setPermissionCheckHandler: (handler: typeof check) => (check = handler),
      setDevicePermissionHandler: (handler: typeof device) => (device = handler),
      webRequest: { onHeadersReceived: (handler: typeof headers) => (headers = handler) },
    } as unknown as Session;
    hardenSession(session);
    const granted = vi.fn();
    request!({}, 'media', granted);
    expect(granted).toHaveBeenCalledWith(false);
    expect(check!()).toBe(false);
    expect(device!()).toBe(false);
    let policy = '';
    headers!(
      { responseHeaders: {} },
      ({ responseHeaders }) => (policy = responseHeaders['Content-Security-Policy']![0]!),
    );
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it('compares origins, never prefixes', () => {
    expect(isAppUrl(`${appOrigin}/index.html`)).toBe(true);
    expect(isAppUrl('kubetide://app.evil.example/index.html')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
    expect(isAppUrl('http://localhost:5173/', 'http://localhost:5173')).toBe(true);
  });

  it('accepts IPC only from the main frame of the app', () => {
    const frame = (url: string, parent: unknown = null) => ({ senderFrame: { url, parent } }) as never;
    expect(checkSender(frame(`${appOrigin}/index.html`))).toEqual({ ok: true });
    expect(checkSender(frame(`${appOrigin}/index.html`, {}))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('subframe'),
    });
    expect(checkSender(frame('https://evil.example/'))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not the Kubetide UI'),
    });
    expect(checkSender({ senderFrame: null } as never)).toMatchObject({ ok: false });
  });
});
