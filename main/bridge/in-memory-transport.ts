// Both ends of a bridge channel in one process, for tests and in-process embedding. Messages are
// structured-cloned and delivered on a later microtask, as a real IPC boundary copies and defers them.
import type { ServerMessage } from '../../shared/protocol/server-messages';
import { messageValue } from './outgoing-message';
import type { Transport } from './transport';

/** The renderer's end: what renderer/transport's BridgeLink expects. */
export interface InMemoryClientEnd {
  send(message: unknown): void;
  onMessage(listener: (message: ServerMessage) => void): void;
  onClose(listener: (reason: string) => void): void;
  close(reason?: string): void;
}

export interface InMemoryTransportPair {
  server: Transport;
  client: InMemoryClientEnd;
  /** Messages sent by either side and not yet delivered. */
  inFlight(): number;
}

export function createInMemoryTransportPair(description = 'in-memory'): InMemoryTransportPair {
  let serverListener: ((message: unknown) => void) | undefined;
  let clientListener: ((message: ServerMessage) => void) | undefined;
  const closeListeners: ((reason: string) => void)[] = [];
  let closed = false;
  let inFlight = 0;

  const deliver = <T>(message: T, receive: () => ((message: T) => void) | undefined) => {
    if (closed) return;
    const copy = structuredClone(message);
    inFlight += 1;
    queueMicrotask(() => {
      inFlight -= 1;
      if (!closed) receive()?.(copy);
    });
  };
  const close = (reason = 'closed') => {
    if (closed) return;
    closed = true;
    for (const listener of closeListeners.splice(0)) listener(reason);
  };

  return {
    server: {
      description,
      send: (message) => deliver(messageValue(message), () => clientListener),
      onMessage: (listener) => (serverListener = listener),
      onClose: (listener) => closeListeners.push(listener),
      close,
    },
    client: {
      send: (message) => deliver(message, () => serverListener),
      onMessage: (listener) => (clientListener = listener),
      onClose: (listener) => closeListeners.push(listener),
      close,
    },
    inFlight: () => inFlight,
  };
}
