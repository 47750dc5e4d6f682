// A renderer's BridgeClient on a started backend (main/app/backend.ts) over an in-memory transport,
// frames run every 10 ms of real time: what the integration tests of whole sessions (kubeconfig
// changes, logins, discovery) drive instead of a window.
import type { Backend } from '../../main/app/backend';
import { createInMemoryTransportPair } from '../../main/bridge/in-memory-transport';
import { ManualFrameScheduler } from '../../renderer/store/frame-scheduler';
import { BridgeClient } from '../../renderer/transport/bridge-client';
import type { BridgeLink } from '../../renderer/transport/bridge-link';
import { currentContext } from '../../shared/protocol';
import type { ContextDescription } from '../../shared/protocol';

export interface BackendRenderer {
  readonly client: BridgeClient;
  /** The open context's entry in the pickers' list, as the renderer holds it. */
  current(): ContextDescription | undefined;
  close(): void;
}

/** A started client of `backend`; close() stops its frames and closes it. */
export function connectRenderer(backend: Backend, name: string): BackendRenderer {
  const scheduler = new ManualFrameScheduler();
  const client = new BridgeClient({
    scheduler,
    open: async () => {
      const pair = createInMemoryTransportPair(name);
      backend.connect(pair.server);
      return pair.client as unknown as BridgeLink;
    },
  });
  const frames = setInterval(() => scheduler.runFrame(), 10);
  client.start();
  return {
    client,
    current: () => currentContext(client.state.getState().contexts),
    close: () => {
      clearInterval(frames);
      client.close();
    },
  };
}
