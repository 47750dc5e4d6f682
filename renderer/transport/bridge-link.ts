// One open channel from the renderer to main, whatever carries it (a WebSocket in browser mode, a
// MessagePort under Electron). A link never reconnects by itself: BridgeClient opens a new one.
import type { ClientMessage } from '../../shared/protocol/client-messages';
import type { ServerMessage } from '../../shared/protocol/server-messages';

export interface BridgeLink {
  send(message: ClientMessage): void;
  /** One listener; a second call replaces the first. */
  onMessage(listener: (message: ServerMessage) => void): void;
  /** Called once, when the link is lost or closed. */
  onClose(listener: (reason: string) => void): void;
  close(reason?: string): void;
}

/** Opens a new link; rejects with the reason when it cannot. */
export type LinkOpener = () => Promise<BridgeLink>;
