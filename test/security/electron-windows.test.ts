// Electron's security checklist, asserted for every window main/app/electron-main.ts creates: the real
// entry module is imported against a full electron mock, so a window opened by a new code path (a
// second instance, macOS activate) is checked too, not just the helpers it is meant to use. The mock
// is thin where it matters: the kubetide: protocol handler the entry registers is called with real
// Requests and its real Responses' headers are read; Electron's 'web-contents-created' is emitted for
// each window as Electron emits it; the preload runs against a stub window.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contentSecurityPolicyMetaPlugin } from '../../shared/security/content-security-policy';
import { showStartupFailure } from '../../main/app/startup-failure';

interface MockWindow {
  options: { webPreferences: Record<string, unknown> };
  loadedUrls: string[];
  listeners: Map<string, (event: { preventDefault(): void }, ...rest: unknown[]) => void>;
  openHandler?: (details: { url: string }) => { action: string };
  destroyed: boolean;
}

type PermissionRequestHandler = (
  contents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
) => void;
type HeadersHandler = (
  details: { responseHeaders?: Record<string, string[]> },
  callback: (response: unknown) => void,
) => void;

interface MockSession {
  permissionRequest?: PermissionRequestHandler;
  permissionCheck?: () => boolean;
  devicePermission?: () => boolean;
  headers?: HeadersHandler;
  setPermissionRequestHandler(handler: PermissionRequestHandler): void;
  setPermissionCheckHandler(handler: () => boolean): void;
  setDevicePermissionHandler(handler: () => boolean): void;
  webRequest: { onHeadersReceived(handler: HeadersHandler): void };
}

const electron = vi.hoisted(() => {
  const windows: MockWindow[] = [];
  const appListeners = new Map<string, (...values: unknown[]) => void>();
  const ipcListeners = new Map<string, (event: unknown) => void>();
  const session: MockSession = {
    setPermissionRequestHandler(handler) {
      session.permissionRequest = handler;
    },
    setPermissionCheckHandler(handler) {
      session.permissionCheck = handler;
    },
    setDevicePermissionHandler(handler) {
      session.devicePermission = handler;
    },
    webRequest: {
      onHeadersReceived(handler) {
        session.headers = handler;
      },
    },
  };
  class BrowserWindow {
    readonly record: MockWindow;
    readonly webContents: {
      id: number;
      on: (name: string, listener: MockWindow['listeners'] extends Map<string, infer L> ? L : never) => void;
      setWindowOpenHandler: (handler: MockWindow['openHandler']) => void;
    };
    constructor(options: MockWindow['options']) {
      this.record = { options, loadedUrls: [], listeners: new Map(), destroyed: false };
      windows.push(this.record);
      const record = this.record;
      this.webContents = {
        id: windows.length,
        on: (name, listener) => void record.listeners.set(name, listener),
        setWindowOpenHandler: (handler) => void (record.openHandler = handler),
      };
      appListeners.get('web-contents-created')?.({}, this.webContents);
    }
    static getAllWindows = () => windows.filter((window) => !window.destroyed);
    once() {}
    show() {}
    focus() {}
    isDestroyed() {
      return this.record.destroyed;
    }
    loadURL(url: string) {
      this.record.loadedUrls.push(url);
      return Promise.resolve();
    }
  }
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  const ipcRendererOnce = new Map<string, (event: { ports: unknown[] }) => void>();
  const exposed = new Map<string, unknown>();
  return {
    windows,
    appListeners,
    ipcListeners,
    session,
    protocolHandlers,
    ipcRendererOnce,
    exposed,
    sandboxEnabled: { value: false },
    module: {
      app: {
        isPackaged: false,
        enableSandbox: () => void 0,
        requestSingleInstanceLock: () => true,
        whenReady: () => Promise.resolve(),
        quit: () => undefined,
        exit: () => undefined,
        on: (name: string, listener: (...values: unknown[]) => void) => void appListeners.set(name, listener),
      },
      BrowserWindow,
      dialog: {},
      powerMonitor: { on: () => undefined, off: () => undefined },
      ipcMain: {
        on: (channel: string, listener: (event: unknown) => void) => ipcListeners.set(channel, listener),
      },
      MessageChannelMain: class {
        port1 = { on() {}, start() {}, postMessage() {}, close() {} };
        port2 = {};
      },
      net: {
        fetch: (url: string) =>
          Promise.resolve(new Response(`file ${url}`, { headers: { 'Content-Type': 'text/html' } })),
      },
      protocol: {
        registerSchemesAsPrivileged: () => undefined,
        handle: (scheme: string, handler: (request: Request) => Promise<Response>) =>
          protocolHandlers.set(scheme, handler),
      },
      contextBridge: { exposeInMainWorld: (name: string, api: unknown) => void exposed.set(name, api) },
      ipcRenderer: {
        once: (channel: string, listener: (event: { ports: unknown[] }) => void) =>
          void ipcRendererOnce.set(channel, listener),
        send: () => undefined,
      },
      session: { defaultSession: session },
    },
  };
});

vi.mock('electron', () => {
  const module = electron.module;
  module.app.enableSandbox = () => void (electron.sandboxEnabled.value = true);
  return { ...module, default: module };
});

const backend = vi.hoisted(() => ({ connected: 0 }));
vi.mock('../../main/app/backend', () => ({
  startBackend: async () => ({
    host: undefined,
    embedded: undefined,
    connect: () => void backend.connected++,
    close: async () => undefined,
  }),
}));

const originalArgv = process.argv;
beforeAll(async () => {
  delete process.env.ELECTRON_RENDERER_URL;
  process.argv = ['electron', 'main'];
  await import('../../main/app/electron-main');
  await vi.waitFor(() => expect(electron.windows.length).toBe(1));
  // Open the other windows the entry can create: macOS activate with none open, and a second
  // instance after the first window was closed.
  electron.windows[0].destroyed = true;
  electron.appListeners.get('activate')!();
  electron.windows[1].destroyed = true;
  electron.appListeners.get('second-instance')!();
});
afterAll(() => {
  process.argv = originalArgv;
});

describe('every Electron window', () => {
  it('is created three ways and each is checked', () => {
    expect(electron.windows).toHaveLength(3);
  });

  it('isolates the renderer: contextIsolation, sandbox, no Node integration anywhere, no webviews', () => {
    expect(electron.sandboxEnabled.value).toBe(true);
    for (const window of electron.windows) {
      expect(window.options.webPreferences).toMatchObject({
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
      expect(String(window.options.webPreferences.preload)).toMatch(/preload/);
    }
  });

  it('loads only the app itself, never remote content', () => {
    for (const window of electron.windows) {
      expect(window.loadedUrls).toEqual(['kubetide://app/index.html']);
    }
  });

  it('denies navigation, redirects, webviews and new windows', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const window of electron.windows) {
      for (const name of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
        const preventDefault = vi.fn();
        window.listeners.get(name)!({ preventDefault }, 'https://evil.example/');
        expect(preventDefault, name).toHaveBeenCalled();
      }
      expect(window.openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    }
    warn.mockRestore();
  });

  it('refuses every permission request, check and device', () => {
    const granted: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal'])
      electron.session.permissionRequest!(undefined, permission, (value) => granted.push(value));
    expect(granted).toEqual([false, false, false, false, false]);
    expect(electron.session.permissionCheck!()).toBe(false);
    expect(electron.session.devicePermission!()).toBe(false);
  });

  it('the app protocol answers with a strict CSP and the security headers, 404s included', async () => {
    const handler = electron.protocolHandlers.get('kubetide')!;
    for (const url of ['kubetide://app/index.html', 'kubetide://app/assets/index.js', 'kubetide://evil/']) {
      const response = await handler(new Request(url));
      const policy = response.headers.get('Content-Security-Policy') ?? '';
      const directives = new Map(
        policy.split(';').map((directive) => {
          const [name, ...sources] = directive.trim().split(/\s+/);
          return [name, sources] as const;
        }),
      );
      expect(directives.get('default-src'), url).toEqual(["'none'"]);
      expect(directives.get('script-src'), url).toEqual(["'self'"]);
      expect(directives.get('object-src'), url).toEqual(["'none'"]);
      expect(directives.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(directives.get('base-uri'), url).toEqual(["'none'"]);
      expect(policy, url).not.toMatch(/unsafe-eval|https?:|\*/);
      expect(response.headers.get('X-Content-Type-Options'), url).toBe('nosniff');
      expect(response.headers.get('X-Frame-Options'), url).toBe('DENY');
      expect(response.headers.get('Referrer-Policy'), url).toBe('no-referrer');
    }
    const page = await handler(new Request('kubetide://app/index.html'));
    expect(page.headers.get('Content-Type')).toBe('text/html');
  });

  it('index.html carries the policy as a meta tag too, for any load that bypasses the handler', () => {
    const html = readFileSync(join(__dirname, '..', '..', 'renderer', 'index.html'), 'utf8');
    const built = contentSecurityPolicyMetaPlugin().transformIndexHtml(html);
    expect(built).toMatch(
      /<head>\s*<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self';/,
    );
    // frame-ancestors is ignored (with a console warning) in a meta tag; the header carries it.
    expect(built).not.toContain('frame-ancestors');
  });

  it('guards every webContents Electron creates, not only the windows main opens', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const guard = electron.appListeners.get('web-contents-created')!;
    const listeners = new Map<string, (event: { preventDefault(): void }, url: string) => void>();
    let openHandler: ((details: { url: string }) => { action: string }) | undefined;
    guard(
      {},
      {
        on: (name: string, listener: (event: { preventDefault(): void }, url: string) => void) =>
          listeners.set(name, listener),
        setWindowOpenHandler: (handler: typeof openHandler) => (openHandler = handler),
      },
    );
    for (const name of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const preventDefault = vi.fn();
      listeners.get(name)!({ preventDefault }, 'https://evil.example/');
      expect(preventDefault, name).toHaveBeenCalled();
    }
    expect(openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    warn.mockRestore();
  });

  it("the preload posts the bridge port to the app's own origin only, never '*'", async () => {
    await import('../../main/app/preload/preload');
    const api = electron.exposed.get('kubetide') as { requestPort(nonce: string): void };
    const postMessage = vi.fn();
    vi.stubGlobal('window', { postMessage, location: { origin: 'kubetide://app' } });
    api.requestPort('nonce-1');
    electron.ipcRendererOnce.get('kubetide:bridge-port')!({ ports: ['port'] });
    expect(postMessage).toHaveBeenCalledWith({ kubetideBridgePort: 'nonce-1' }, 'kubetide://app', ['port']);
    vi.unstubAllGlobals();
  });

  it('packages with the hardening fuses on', () => {
    const config = parse(
      readFileSync(join(__dirname, '..', '..', 'build', 'electron-builder.yml'), 'utf8'),
    ) as { electronFuses: Record<string, boolean> };
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('a failed start-up shows a dialog with the reason', () => {
    const shown: string[][] = [];
    showStartupFailure(
      { showErrorBox: (title, content) => void shown.push([title, content]) },
      new Error('no kubeconfig'),
    );
    expect(shown).toEqual([['Kubetide could not start', expect.stringContaining('no kubeconfig')]]);
  });

  it('serves only files inside the renderer folder on kubetide://app', async () => {
    const handler = electron.protocolHandlers.get('kubetide')!;
    for (const url of [
      'kubetide://app/..%2F..%2F..%2Fetc%2Fpasswd',
      'kubetide://app/%2e%2e/%2e%2e/package.json',
      'kubetide://app/..%5C..%5Cpackage.json',
      'kubetide://evil/index.html',
    ]) {
      const response = await handler(new Request(url));
      // A 200 may only be a file that resolved inside the renderer folder (URL parsing folds "%2e%2e").
      if (response.status === 200) expect(await response.text(), url).toMatch(/\/renderer\/[^/]*$/);
      else expect(response.status, url).toBe(404);
    }
    expect((await handler(new Request('kubetide://evil/index.html'))).status).toBe(404);
  });

  it('hands a bridge port only to the main frame of the app, never to other pages or subframes', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const request = electron.ipcListeners.get('kubetide:request-port')!;
    const sent: string[] = [];
    const event = (url: string, parent: unknown) => ({
      senderFrame: { url, parent },
      sender: { id: 1, postMessage: (channel: string) => sent.push(channel) },
    });
    request(event('https://evil.example/', null));
    request(event('kubetide://app/index.html', { url: 'kubetide://app/index.html' }));
    request(event('kubetide://app.evil/index.html', null));
    expect(sent).toEqual([]);
    expect(backend.connected).toBe(0);
    request(event('kubetide://app/index.html', null));
    expect(sent).toEqual(['kubetide:bridge-port']);
    expect(backend.connected).toBe(1);
    warn.mockRestore();
  });
});
