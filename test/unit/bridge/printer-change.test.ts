// A custom kind's printer columns edited while connected: the session re-projects the kind's rows and
// announces the new columns, and the renderer's mirror ends up with the new cells for every row,
// though no object changed.
import { afterEach, describe, expect, it } from 'vitest';
import { ClusterSession } from '../../../main/bridge/cluster-session';
import type { DiscoveredResource, KindSource } from '../../../main/bridge/served-kinds';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { KindPrinter } from '../../../shared/kinds/columns';
import { printerForPrinterColumns } from '../../../shared/kinds/columns';
import { connectInMemory } from '../../support/in-memory-bridge';
import { FakeApi, pod } from './fake-api';

const widgets = { group: 'example.dev', version: 'v1', resource: 'widgets' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Discovery serving one custom kind, whose change listeners the test calls. */
class FakeDiscovery implements KindSource {
  readonly listeners = new Set<() => void>();
  preferredResources(): DiscoveredResource[] {
    return [{ ...widgets, kind: 'Widget', namespaced: true, verbs: ['list', 'watch'], preferred: true }];
  }
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function setUp(api: FakeApi, printer: () => KindPrinter) {
  const clock = new FakeClock();
  const discovery = new FakeDiscovery();
  const session = new ClusterSession({
    context: 'test',
    newListerWatcher: () => api.listerWatcher(),
    discovery,
    printerFor: (gvr) => (gvr.resource === 'widgets' ? printer() : undefined),
    clock,
  });
  const { client, settle, close } = connectInMemory(session, clock);
  cleanups.push(close);
  return { client, discovery, settle };
}

describe('a custom kind whose printer columns change while connected', () => {
  it('gets new cells in every mirrored row and new columns in the kinds list', async () => {
    const api = new FakeApi();
    api.apply(pod('default', 'alpha', { app: 'shop' }, 'node-1'));
    api.apply(pod('default', 'beta', { app: 'cart' }, 'node-2'));
    const byApp = printerForPrinterColumns([
      { name: 'App', type: 'string', jsonPath: '.metadata.labels.app' },
    ]);
    const byNode = printerForPrinterColumns([{ name: 'Node', type: 'string', jsonPath: '.spec.nodeName' }]);
    let current = byApp;
    const { client, discovery, settle } = setUp(api, () => current);
    client.start();
    await settle(2);
    const subscriptionId = await client.subscribe(widgets);
    await settle();
    const cells = () =>
      [...client.store.mirror(subscriptionId)!.rows.values()].map((row) => row.cells).sort();
    const columns = () =>
      client.state
        .getState()
        .kinds.find((kind) => kind.gvr.resource === 'widgets')
        ?.columns.map((c) => c.name);
    expect(cells()).toEqual([
      ['alpha', 'shop'],
      ['beta', 'cart'],
    ]);
    expect(columns()).toEqual(['Name', 'App']);

    current = byNode;
    for (const listener of discovery.listeners) listener();
    await settle();
    expect(cells()).toEqual([
      ['alpha', 'node-1'],
      ['beta', 'node-2'],
    ]);
    expect(columns()).toEqual(['Name', 'Node']);
  });
});
