// The channel between main and one renderer. The bridge speaks only through this interface, so the
// Electron MessagePort (main/app), the WebSocket server (browser mode) and the in-memory pair (tests)
// are interchangeable.
import type { OutgoingMessage } from './outgoing-message';

export interface Transport {
  /**
   * Delivers one message to the renderer (a batch with encoded rows as the ServerMessage it stands
   * for: see outgoing-message.ts). Silently dropped once the transport has closed.
   */
  send(message: OutgoingMessage): void;
  /**
   * Registers the receiver of every message from the renderer, as it arrived: untrusted and unvalidated
   * (the bridge validates it). One listener; a second call replaces the first.
   */
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the renderer side goes away or close() is called. */
  onClose(listener: (reason: string) => void): void;
  /** Bytes queued for the renderer and not yet handed to the OS; absent where unknowable. */
  bufferedAmount?(): number;
  close(reason?: string): void;
  /** Names the peer in logs ("ws 127.0.0.1:53211", "window 1"). */
  readonly description: string;
}
