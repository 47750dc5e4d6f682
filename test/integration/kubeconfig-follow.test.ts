// The app follows its kubeconfig while it runs: a context added to the file (as `kind create cluster`
// or `aws eks update-kubeconfig` adds one) reaches every connected renderer's context picker, and
// switching to it connects with the file as it reads now.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startBackend } from '../../main/app/backend';
import type { Backend } from '../../main/app/backend';
import { createInMemoryTransportPair } from '../../main/bridge/in-memory-transport';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { ManualFrameScheduler } from '../../renderer/store/frame-scheduler';
import { BridgeClient } from '../../renderer/transport/bridge-client';
import type { BridgeLink } from '../../renderer/transport/bridge-link';

let cluster: EmbeddedCluster;
let backend: Backend;
let directory: string;
let file: string;

/** The cluster's kubeconfig with one context per name, all on the embedded cluster. */
function kubeconfigWith(contexts: string[]): string {
  const document = parse(cluster.kubeconfigYaml()) as {
    contexts: { name: string; context: object }[];
    'current-context': string;
  };
  const context = document.contexts[0]!.context;
  document.contexts = contexts.map((name) => ({ name, context }));
  document['current-context'] = contexts[0]!;
  return stringify(document);
}

beforeAll(async () => {
  cluster = await startEmbeddedCluster({ tls: true, pods: 10, seed: 4 });
  directory = mkdtempSync(join(tmpdir(), 'kubeconfig-follow-'));
  file = join(directory, 'config');
  writeFileSync(file, kubeconfigWith(['first']));
  backend = await startBackend({ kubeconfig: file, record: false, log: () => undefined });
});

afterAll(async () => {
  await backend?.close();
  await cluster?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('following the kubeconfig', () => {
  it('offers a context added to the file, and opens it', async () => {
    const scheduler = new ManualFrameScheduler();
    const client = new BridgeClient({
      scheduler,
      open: async () => {
        const pair = createInMemoryTransportPair('follow');
        backend.connect(pair.server);
        return pair.client as unknown as BridgeLink;
      },
    });
    const frames = setInterval(() => scheduler.runFrame(), 10);
    try {
      client.start();
      const names = () => (client.state.getState().contexts?.contexts ?? []).map((context) => context.name);
      await expect.poll(() => names()).toEqual(['first', 'Embedded cluster']);
      writeFileSync(`${file}.new`, kubeconfigWith(['first', 'second']));
      renameSync(`${file}.new`, file);
      await expect.poll(() => names(), { timeout: 10_000 }).toEqual(['first', 'second', 'Embedded cluster']);
      await client.switchContext('second');
      await expect.poll(() => client.state.getState().contexts?.current).toBe('second');
    } finally {
      clearInterval(frames);
      client.close();
    }
  });
});
