// The sandboxed preload: bundled to one CommonJS file, it may require only `electron`. It exposes one
// function per message (never ipcRenderer itself) and forwards the bridge MessagePort to the page's
// main world, stripping the IpcRendererEvent (which carries `sender`).
import { contextBridge, ipcRenderer } from 'electron';
import {
  ipcChannels,
  preloadGlobalName,
  type KubetidePreloadApi,
  type PortAnnouncement,
} from '../../../shared/preload-api';

const nonceLimit = 128;

export const api: KubetidePreloadApi = {
  requestPort(nonce: string): void {
    if (typeof nonce !== 'string' || nonce.length === 0 || nonce.length > nonceLimit) {
      throw new TypeError('requestPort needs a nonce string of 1 to 128 characters');
    }
    ipcRenderer.once(ipcChannels.bridgePort, (event) => {
      const announcement: PortAnnouncement = { kubetideBridgePort: nonce };
      // Delivered only if this window still shows the app's own origin: were it navigated elsewhere
      // (which main also forbids), the port would not be handed to that page.
      window.postMessage(announcement, window.location.origin, event.ports);
    });
    ipcRenderer.send(ipcChannels.requestPort);
  },
  platform: process.platform,
};

contextBridge.exposeInMainWorld(preloadGlobalName, api);
