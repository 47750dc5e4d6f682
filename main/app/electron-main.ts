// The Electron entry: the only process-level code that imports electron. It starts the same backend as
// browser mode, opens hardened windows on the kubetide://app origin, and gives each window's renderer a
// MessagePort to the bridge after checking who asks.
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  MessageChannelMain,
  net,
  powerMonitor,
  protocol,
  session,
} from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ipcChannels } from '../../shared/preload-api';
import { startBackend, type Backend } from './backend';
import { ElectronTransport } from './electron-transport';
import { checkSender } from './ipc-guard';
import { followPowerEvents } from './power-events';
import { electronFilePicker } from './history-file-dialog';
import { parseServeOptions } from './serve-options';
import { rendererProtocolHandler } from './renderer-protocol';
import { showStartupFailure } from './startup-failure';
import {
  appOrigin,
  appScheme,
  hardenSession,
  hardenWebContents,
  secureWebPreferences,
} from './window-security';

const outDirectory = join(fileURLToPath(import.meta.url), '..', '..');
const rendererDirectory = join(outDirectory, 'renderer');
/** Set by `electron-vite dev`; only honoured for an unpackaged app. */
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const devServerOrigin = devServerUrl ? new URL(devServerUrl).origin : undefined;

protocol.registerSchemesAsPrivileged([
  { scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);
app.enableSandbox();
// Every webContents, whoever creates it, gets navigation, new windows and webviews denied.
app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));

/** Serves out/renderer under kubetide://app/, refusing any path that escapes it. */
function serveRenderer(): void {
  protocol.handle(
    appScheme,
    rendererProtocolHandler(rendererDirectory, (url) => net.fetch(url)),
  );
}

function acceptBridgeRequests(backend: Backend): void {
  ipcMain.on(ipcChannels.requestPort, (event) => {
    const verdict = checkSender(event, devServerOrigin);
    if (!verdict.ok) {
      console.warn(`kubetide: refused a bridge port request: ${verdict.reason}`);
      return;
    }
    const { port1, port2 } = new MessageChannelMain();
    backend.connect(new ElectronTransport(port1, `window ${event.sender.id}`));
    event.sender.postMessage(ipcChannels.bridgePort, null, [port2]);
  });
}

function openWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 900,
    minHeight: 560,
    title: 'Kubetide',
    show: false,
    webPreferences: secureWebPreferences(join(outDirectory, 'preload', 'index.cjs')),
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(devServerUrl ?? `${appOrigin}/index.html`);
  return window;
}

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  const options = parseServeOptions(process.argv.slice(app.isPackaged ? 1 : 2));
  await app.whenReady();
  hardenSession(session.defaultSession, devServerOrigin);
  serveRenderer();
  const backend = await startBackend({
    embedded: options === 'help' ? false : options.embedded,
    ...(options !== 'help' && options.kubeconfig !== undefined ? { kubeconfig: options.kubeconfig } : {}),
    ...(options !== 'help' && options.context !== undefined ? { context: options.context } : {}),
    ...(options !== 'help'
      ? {
          pods: options.pods,
          record: options.record,
          crashLogs: options.crashLogs,
          retention: options.retention,
        }
      : {}),
    pickFile: electronFilePicker(dialog, () => BrowserWindow.getFocusedWindow() ?? undefined),
    ...(options !== 'help' && options.dataDirectory !== undefined
      ? { dataDirectory: options.dataDirectory }
      : {}),
  });
  acceptBridgeRequests(backend);
  followPowerEvents(powerMonitor, backend.host);
  let window = openWindow();
  app.on('second-instance', () => {
    if (window.isDestroyed()) window = openWindow();
    else window.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) window = openWindow();
  });
  app.on('window-all-closed', () => {
    void backend.close().finally(() => app.quit());
  });
}

main().catch((error: unknown) => {
  console.error('kubetide: could not start:', error);
  showStartupFailure(dialog, error);
  app.exit(1);
});
