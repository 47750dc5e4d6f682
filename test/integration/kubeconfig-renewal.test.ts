// The open context follows its kubeconfig entry: when the file gives it another cluster (a `kind`
// cluster recreated on a new port with a new CA), main opens it again from the new entry, the
// renderers mirror the new cluster's objects, and the recording goes on in the same file with the
// old cluster's objects retired and the change-over inside a marked gap. A rewrite that leaves the
// entry as it was (keys in another order, another context added) and a context removed from the file
// keep the session as it is (the removed one listed as such).
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startBackend } from '../../main/app/backend';
import type { Backend } from '../../main/app/backend';
import { recordingFile } from '../../main/history/data-directory';
import { openRecording } from '../../main/history/recording-reader';
import { stateAt } from '../../main/history/state-at';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { connectRenderer } from '../support/backend-renderer';
import { uncoveredSpans } from '../support/recording-coverage';

const pods = { group: '', version: 'v1', resource: 'pods' };
let first: EmbeddedCluster;
let second: EmbeddedCluster;
let backend: Backend;
let directory: string;
let file: string;
const logged: string[] = [];

interface KubeconfigDocument {
  clusters: { name: string; cluster: Record<string, unknown> }[];
  users: { name: string; user: Record<string, unknown> }[];
  contexts: { name: string; context: Record<string, unknown> }[];
  'current-context': string;
}

/** `cluster`'s kubeconfig with its context named `work`, plus a context per name in `others`. */
function kubeconfigFor(cluster: EmbeddedCluster, others: string[] = []): KubeconfigDocument {
  const document = parse(cluster.kubeconfigYaml()) as KubeconfigDocument;
  const context = document.contexts[0]!.context;
  document.contexts = ['work', ...others].map((name) => ({ name, context }));
  document['current-context'] = 'work';
  return document;
}

/** Replaces the file as kubectl does: written beside it, renamed over it. */
function writeKubeconfig(document: KubeconfigDocument, options: { sortMapEntries?: boolean } = {}): void {
  writeFileSync(`${file}.new`, stringify(document, options));
  renameSync(`${file}.new`, file);
}

function podKeys(cluster: EmbeddedCluster): string[] {
  return [...cluster.store.values('pods')]
    .map((stored) => `${stored.object.metadata.namespace}/${stored.object.metadata.name}`)
    .sort();
}

beforeAll(async () => {
  first = await startEmbeddedCluster({ tls: true, pods: 10, seed: 4 });
  second = await startEmbeddedCluster({ tls: true, pods: 14, seed: 9 });
  directory = mkdtempSync(join(tmpdir(), 'kubeconfig-renewal-'));
  file = join(directory, 'config');
  writeKubeconfig(kubeconfigFor(first));
  backend = await startBackend({
    kubeconfig: file,
    dataDirectory: join(directory, 'data'),
    log: (message) => logged.push(message),
  });
});

afterAll(async () => {
  await backend?.close();
  await first?.close();
  await second?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("the open context's kubeconfig entry", () => {
  it('opens the context again from a changed entry, and keeps it through rewrites that change nothing', async () => {
    const firstPods = podKeys(first);
    const secondPods = podKeys(second);
    expect(secondPods.filter((key) => firstPods.includes(key))).toEqual([]);
    const renderer = connectRenderer(backend, 'renewal');
    const { client } = renderer;
    try {
      const id = await client.subscribe(pods);
      const rows = () => [...(client.store.mirror(id)?.rows.keys() ?? [])].sort();
      const session = () => client.state.getState().contexts?.session;
      await expect.poll(rows, { timeout: 15_000 }).toEqual(firstPods);
      expect(session()).toBe(1);
      const startedAt = Date.now();

      // The same cluster's entry rewritten with its keys sorted, and a context added: not a change.
      writeKubeconfig(kubeconfigFor(first, ['spare']), { sortMapEntries: true });
      const names = () => (client.state.getState().contexts?.contexts ?? []).map((context) => context.name);
      await expect.poll(names, { timeout: 10_000 }).toEqual(['work', 'spare', 'Embedded cluster']);
      expect(session()).toBe(1);

      // `work` now names another cluster, on another port with another CA.
      writeKubeconfig(kubeconfigFor(second));
      await expect.poll(rows, { timeout: 15_000 }).toEqual(secondPods);
      expect(session()).toBe(2);
      expect(client.state.getState().contexts?.current).toBe('work');
      expect(logged.join('\n')).toMatch(/entry for context work changed/);

      // The context removed from the file: the session stays as it was read, and the pickers list it
      // marked removed.
      const withoutWork = kubeconfigFor(second, ['spare']);
      withoutWork.contexts = withoutWork.contexts.filter((context) => context.name !== 'work');
      withoutWork['current-context'] = 'spare';
      writeKubeconfig(withoutWork);
      const removed = () =>
        (client.state.getState().contexts?.contexts ?? [])
          .filter((context) => context.removed)
          .map((context) => context.name);
      await expect.poll(removed, { timeout: 10_000 }).toEqual(['work']);
      expect(names()).toEqual(['work', 'spare', 'Embedded cluster']);
      expect(session()).toBe(2);
      expect(rows()).toEqual(secondPods);
      expect(logged.join('\n')).toMatch(/context work is no longer in the kubeconfig; it stays open/);

      // One recording went on: the first cluster's pods retired by the second's list, the change-over
      // in a marked gap, every instant since the start either recorded or in a gap.
      const recording = recordingFile(join(directory, 'data'), 'work');
      await expect
        .poll(
          () => {
            const reader = openRecording(recording, { checkIntegrity: false });
            try {
              const now = Date.now();
              const state = stateAt(reader, { gvr: 'pods.v1', time: now });
              const keys = state.objects.map(
                (object) => `${object.metadata.namespace}/${object.metadata.name}`,
              );
              return {
                keys: keys.sort(),
                gap: state.gap?.kind,
                uncovered: uncoveredSpans(reader, 'pods.v1', startedAt, now),
              };
            } finally {
              reader.close();
            }
          },
          { timeout: 15_000 },
        )
        .toEqual({ keys: secondPods, gap: undefined, uncovered: [] });
    } finally {
      renderer.close();
    }
  });
});
