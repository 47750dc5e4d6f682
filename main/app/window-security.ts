// Electron's security checklist, applied to every window and session Kubetide creates
// (docs/tutorial/security.md, items 2-17). Kept apart from window creation so tests can assert each
// item against a mocked electron.
import type { Session, WebContents, WebPreferences } from 'electron';
import { contentSecurityPolicy } from '../../shared/security/content-security-policy';

/** The renderer's origin: a privileged custom scheme, so origin checks never depend on file:// rules. */
export const appScheme = 'kubetide';
export const appOrigin = `${appScheme}://app`;

export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

/**
 * True when `url` belongs to the app itself. Compared by scheme and host (Node's URL gives custom
 * schemes the opaque origin "null"), never by prefix: kubetide://app.evil is not the app.
 */
export function isAppUrl(url: string, devServerOrigin?: string): boolean {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === `${appScheme}:` && parsed.host === 'app') return true;
    return devServerOrigin !== undefined && parsed.origin === devServerOrigin;
  } catch {
    return false;
  }
}

/**
 * Denies every navigation away from the loaded page, every new window and every webview: the UI is a
 * single page and never needs another document. External links are not opened either. Applied from
 * app's 'web-contents-created', so it covers every webContents Electron ever creates (windows,
 * devtools, anything a future code path opens), not only the windows main creates on purpose.
 */
export function hardenWebContents(
  contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>,
  log: (message: string) => void = console.warn,
): void {
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    log(`kubetide: blocked navigation to ${url}`);
  });
  contents.on('will-redirect', (event, url) => {
    event.preventDefault();
    log(`kubetide: blocked redirect to ${url}`);
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log('kubetide: blocked a webview');
  });
  contents.setWindowOpenHandler(({ url }) => {
    log(`kubetide: blocked a new window for ${url}`);
    return { action: 'deny' };
  });
}

/**
 * Refuses every permission (camera, notifications, ...) and sets the CSP on every HTTP response (the
 * development server's). Electron does not run webRequest for custom protocols: responses of
 * kubetide://app carry their headers from the protocol handler itself (renderer-protocol.ts).
 */
export function hardenSession(session: Session, devServerOrigin?: string): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  const policy = contentSecurityPolicy(devServerOrigin ? { connectSources: [devServerOrigin] } : {});
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [policy],
        'X-Content-Type-Options': ['nosniff'],
      },
    });
  });
}
