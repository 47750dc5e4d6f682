// A renderer's BridgeClient connected to main's BridgeHost over in-memory transports, both on one fake
// clock, with manual frames: what the bridge unit tests drive instead of Electron or a WebSocket.
import { BridgeHost } from '../../main/bridge/bridge-host';
import type { BridgeHostOptions } from '../../main/bridge/bridge-host';
import type { ClusterSession } from '../../main/bridge/cluster-session';
import { createInMemoryTransportPair } from '../../main/bridge/in-memory-transport';
import type { FakeClock } from '../../main/cache/fake-clock';
import { ManualFrameScheduler } from '../../renderer/store/frame-scheduler';
import { BridgeClient } from '../../renderer/transport/bridge-client';
import type { BridgeLink } from '../../renderer/transport/bridge-link';

export interface InMemoryBridge {
  readonly host: BridgeHost;
  readonly client: BridgeClient;
  /** Every link the client opened, in order (a test may drop one to see the client reconnect). */
  readonly links: ReturnType<typeof createInMemoryTransportPair>[];
  /** Lets time, messages and frames move: main flushes, the renderer applies and acknowledges. */
  settle(rounds?: number): Promise<void>;
  close(): Promise<void>;
}

/** A host serving `session` alone (any other context is refused), and a client not yet started. */
export function connectInMemory(
  session: ClusterSession,
  clock: FakeClock,
  host: Partial<Omit<BridgeHostOptions, 'session'>> = {},
): InMemoryBridge {
  const bridgeHost = new BridgeHost({
    session,
    listContexts: () => [{ name: 'test', cluster: 'test' }],
    openSession: async () => {
      throw new Error('one context only');
    },
    log: () => {},
    ...host,
  });
  const scheduler = new ManualFrameScheduler();
  const links: ReturnType<typeof createInMemoryTransportPair>[] = [];
  const client = new BridgeClient({
    scheduler,
    timers: {
      now: () => clock.now(),
      setTimeout: (callback, delay) => clock.setTimeout(callback, delay),
      clearTimeout: (timer) => (timer as { stop(): void }).stop(),
    },
    open: async () => {
      const pair = createInMemoryTransportPair();
      links.push(pair);
      bridgeHost.accept(pair.server);
      return pair.client as unknown as BridgeLink;
    },
  });
  return {
    host: bridgeHost,
    client,
    links,
    async settle(rounds = 20) {
      for (let round = 0; round < rounds; round++) {
        await clock.stepAsync(50);
        scheduler.runFrame();
      }
    },
    async close() {
      client.close();
      await bridgeHost.close();
    },
  };
}
