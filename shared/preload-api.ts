// The whole API the Electron preload exposes to the renderer, as `window.kubetide`. It carries no data
// itself: it only asks main for a bridge connection, which arrives as a MessagePort so that batches
// cross one structured clone instead of a clone plus a contextBridge copy (electron.md, section 2).
// renderer/transport/message-port-link.ts is the receiving side of this contract.

/** The name under which the preload exposes its API on `window`. */
export const preloadGlobalName = 'kubetide';

/** The data of the window message whose `ports[0]` is the bridge port. */
export interface PortAnnouncement {
  /** The nonce the renderer passed to requestPort: a port is accepted only for its own request. */
  kubetideBridgePort: string;
}

export interface KubetidePreloadApi {
  /**
   * Asks main for a new bridge connection. Main answers with a MessagePort, which the preload posts to
   * this window as a PortAnnouncement carrying the same nonce. Each call opens a new connection; main
   * drops a window's old connection when the window reloads or closes.
   */
  requestPort(nonce: string): void;
  /** process.platform, for platform-specific key hints. */
  readonly platform: string;
}

/** IPC channels between the preload and main; nothing else is ever sent over ipcRenderer. */
export const ipcChannels = {
  requestPort: 'kubetide:request-port',
  bridgePort: 'kubetide:bridge-port',
} as const;
