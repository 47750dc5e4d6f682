// The embedded cluster's API semantics over real HTTP: pagination and continue expiry, selectors,
// resourceVersion rules, watches from a resourceVersion, 410 after compaction, bookmarks, watch-list,
// conflicts, Table and metadata renderings, CRDs, the garbage collector, and every injected fault.
// Time is a FakeClock (bookmarks, watch timeouts, stalls, background deletion).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../main/cache/fake-clock';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { KubeObject } from '../../shared/kube/object';

/** Response JSON as the tests read it: any shape, checked by the assertions themselves. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let cluster: EmbeddedCluster;
let clock: FakeClock;

beforeEach(async () => {
  clock = new FakeClock(Date.UTC(2026, 0, 1));
  cluster = await startEmbeddedCluster({
    seed: 7,
    clock,
    simulate: false,
    eventWindow: 50,
    bookmarkIntervalMs: 1000,
  });
  for (const namespace of ['alpha', 'beta'])
    cluster.storage.create(cluster.resource('namespaces'), undefined, { metadata: { name: namespace } });
  for (let index = 0; index < 10; index++)
    createPod(
      `pod-${index}`,
      index % 2 ? 'beta' : 'alpha',
      { app: index < 5 ? 'web' : 'db' },
      `node-${index % 3}`,
    );
});

afterEach(async () => {
  await cluster.close();
});

function createPod(
  name: string,
  namespace: string,
  labels: Record<string, string>,
  nodeName: string,
): KubeObject {
  return cluster.storage.create(cluster.resource('pods'), namespace, {
    metadata: { name, labels },
    spec: { nodeName, containers: [{ name: 'app', image: 'nginx' }] },
  }).object;
}

async function request(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await fetch(`${cluster.url}${path}`, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {}, headers: response.headers };
}

const names = (list: { items: KubeObject[] }) => list.items.map((item) => item.metadata.name);

/** POSTs a namespaced CustomResourceDefinition of example.kubetide.dev/v1 `kind`; its status code. */
async function defineCustomKind(plural: string, singular: string, kind: string): Promise<number> {
  const definition = {
    metadata: { name: `${plural}.example.kubetide.dev` },
    spec: {
      group: 'example.kubetide.dev',
      scope: 'Namespaced',
      names: { plural, singular, kind },
      versions: [{ name: 'v1', served: true, storage: true }],
    },
  };
  const created = await request('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    method: 'POST',
    body: JSON.stringify(definition),
  });
  return created.status;
}

/** A WATCH stream read line by line. */
async function watch(path: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(`${cluster.url}${path}`, { signal: controller.signal, headers });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  const lines: string[] = [];
  const fill = async (): Promise<boolean> => {
    if (ended) return false;
    try {
      const { done, value } = await reader.read();
      if (done) ended = true;
      else buffer += decoder.decode(value, { stream: true });
    } catch {
      ended = true;
    }
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      lines.push(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
    }
    return !ended;
  };
  return {
    status: response.status,
    /** The next complete line, or undefined once the stream has ended. */
    async nextLine(): Promise<string | undefined> {
      while (lines.length === 0) if (!(await fill())) return lines.shift();
      return lines.shift();
    },
    async next(): Promise<{ type: string; object: Json }> {
      const line = await this.nextLine();
      if (line === undefined) throw new Error('watch ended');
      return JSON.parse(line);
    },
    /** Reads to the end: the remaining lines and any partial line left without a newline. */
    async rest(): Promise<{ lines: string[]; partial: string }> {
      while (await fill());
      return { lines: lines.splice(0), partial: buffer };
    },
    close: () => controller.abort(),
  };
}

describe('LIST', () => {
  it('pages with limit and continue over a consistent snapshot', async () => {
    const first = await request('/api/v1/pods?limit=4');
    expect(names(first.body as never)).toEqual(['pod-0', 'pod-2', 'pod-4', 'pod-6']);
    expect(first.body.metadata.remainingItemCount).toBe(6);
    createPod('pod-00', 'beta', {}, 'node-0');
    const second = await request(`/api/v1/pods?limit=4&continue=${first.body.metadata.continue}`);
    expect(names(second.body as never)).toEqual(['pod-8', 'pod-1', 'pod-3', 'pod-5']);
    expect(second.body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
    const third = await request(`/api/v1/pods?limit=4&continue=${second.body.metadata.continue}`);
    expect(names(third.body as never)).toEqual(['pod-7', 'pod-9']);
    expect(third.body.metadata.continue).toBeUndefined();
  });

  it("leaves a built-in type's items without apiVersion and kind, as kube-apiserver does, and a custom kind's with them", async () => {
    const pods = (await request('/api/v1/pods?limit=2')).body;
    expect(pods).toMatchObject({ kind: 'PodList', apiVersion: 'v1' });
    expect(pods.items.map((pod: Json) => Object.keys(pod)[0])).toEqual(['metadata', 'metadata']);
    expect(pods.items[0]).not.toHaveProperty('kind');
    // A GET and a watch event say them.
    expect((await request('/api/v1/namespaces/alpha/pods/pod-0')).body).toMatchObject({
      apiVersion: 'v1',
      kind: 'Pod',
    });
    const stream = await watch('/api/v1/pods?watch=true&resourceVersion=0');
    expect((await stream.next()).object).toMatchObject({ apiVersion: 'v1', kind: 'Pod' });
    stream.close();
    expect(await defineCustomKind('gadgets', 'gadget', 'Gadget')).toBe(201);
    await request('/apis/example.kubetide.dev/v1/namespaces/alpha/gadgets', {
      method: 'POST',
      body: JSON.stringify({ metadata: { name: 'g' } }),
    });
    expect((await request('/apis/example.kubetide.dev/v1/gadgets')).body.items[0]).toMatchObject({
      apiVersion: 'example.kubetide.dev/v1',
      kind: 'Gadget',
    });
  });

  it("writes a custom kind's objects and lists unstructured, keys sorted as Go writes a map", async () => {
    expect(await defineCustomKind('doohickeys', 'doohickey', 'Doohickey')).toBe(201);
    const base = '/apis/example.kubetide.dev/v1/namespaces/alpha/doohickeys';
    for (const name of ['d-1', 'd-2', 'd-3'])
      await request(base, {
        method: 'POST',
        body: JSON.stringify({
          spec: { zeta: 1, alpha: { y: true, x: [{ b: 2, a: 1 }] } },
          metadata: { name },
        }),
      });
    const sortedAtEveryLevel = (value: unknown): boolean =>
      value === null || typeof value !== 'object'
        ? true
        : Array.isArray(value)
          ? value.every(sortedAtEveryLevel)
          : Object.keys(value).join() === Object.keys(value).sort().join() &&
            Object.values(value).every(sortedAtEveryLevel);
    // A LIST page: its items before its kind and metadata (continue, remainingItemCount,
    // resourceVersion), as kube-apiserver writes an UnstructuredList.
    const all = '/apis/example.kubetide.dev/v1/doohickeys';
    const page = await request(`${all}?limit=2`);
    expect(Object.keys(page.body)).toEqual(['apiVersion', 'items', 'kind', 'metadata']);
    expect(Object.keys(page.body.metadata)).toEqual(['continue', 'remainingItemCount', 'resourceVersion']);
    expect(page.body).toMatchObject({ kind: 'DoohickeyList', metadata: { remainingItemCount: 1 } });
    expect(page.body.items.every(sortedAtEveryLevel)).toBe(true);
    const rest = await request(`${all}?limit=2&continue=${page.body.metadata.continue}`);
    expect([...names(page.body), ...names(rest.body)]).toEqual(['d-1', 'd-2', 'd-3']);
    // A GET and a watch event alike.
    const single = (await request(`${base}/d-1`)).body;
    expect(sortedAtEveryLevel(single)).toBe(true);
    expect(Object.keys(single).slice(0, 3)).toEqual(['apiVersion', 'kind', 'metadata']);
    const stream = await watch(`${base}?watch=true&resourceVersion=0`);
    expect(sortedAtEveryLevel((await stream.next()).object)).toBe(true);
    stream.close();
    // An update that changes nothing, in another key order, is no write.
    const again = await request(`${base}/d-1`, { method: 'PUT', body: JSON.stringify(single) });
    expect(again.body.metadata.resourceVersion).toBe(single.metadata.resourceVersion);
  });

  it('expires a continue token with 410 once its resourceVersion leaves the window', async () => {
    const first = await request('/api/v1/pods?limit=2');
    for (let index = 0; index < 60; index++)
      cluster.storage.create(cluster.resource('configmaps'), 'alpha', { metadata: { name: `cm-${index}` } });
    const next = await request(`/api/v1/pods?limit=2&continue=${first.body.metadata.continue}`);
    expect(next.status).toBe(410);
    expect(next.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
    expect(next.body.message).toMatch(/^The provided continue parameter is too old/);
  });

  it('lists one namespace, and filters by label and field selectors', async () => {
    expect(names((await request('/api/v1/namespaces/beta/pods')).body as never)).toEqual([
      'pod-1',
      'pod-3',
      'pod-5',
      'pod-7',
      'pod-9',
    ]);
    expect(names((await request('/api/v1/pods?labelSelector=app%3Dweb,app!%3Ddb')).body as never)).toEqual([
      'pod-0',
      'pod-2',
      'pod-4',
      'pod-1',
      'pod-3',
    ]);
    expect(
      names(
        (await request('/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-1,metadata.namespace%3Dalpha'))
          .body as never,
      ),
    ).toEqual(['pod-4']);
    expect(names((await request('/api/v1/pods?fieldSelector=metadata.name%3Dpod-9')).body as never)).toEqual([
      'pod-9',
    ]);
    expect(
      names((await request('/api/v1/pods?fieldSelector=status.phase%3DPending&limit=1')).body as never),
    ).toEqual(['pod-0']);
  });

  it('rejects an unknown field selector and a malformed label selector with 400', async () => {
    const field = await request('/api/v1/pods?fieldSelector=spec.color%3Dred');
    expect(field.status).toBe(400);
    expect(field.body.message).toBe('field label not supported: spec.color');
    expect((await request('/api/v1/pods?labelSelector=app%20in%20(')).status).toBe(400);
  });

  it('serves resourceVersion "0" from cache without paginating', async () => {
    const list = await request('/api/v1/pods?resourceVersion=0&limit=2');
    expect(list.body.items).toHaveLength(10);
    expect(list.body.metadata.continue).toBeUndefined();
  });

  it('answers an exact resourceVersion with the state at that version', async () => {
    const before = (await request('/api/v1/pods')).body.metadata.resourceVersion;
    cluster.storage.delete(cluster.resource('pods'), 'alpha', 'pod-0');
    createPod('pod-new', 'alpha', {}, 'node-0');
    const exact = await request(
      `/api/v1/namespaces/alpha/pods?resourceVersion=${before}&resourceVersionMatch=Exact`,
    );
    expect(names(exact.body as never)).toEqual(['pod-0', 'pod-2', 'pod-4', 'pod-6', 'pod-8']);
    const notOlder = await request(
      `/api/v1/namespaces/alpha/pods?resourceVersion=${before}&resourceVersionMatch=NotOlderThan`,
    );
    expect(names(notOlder.body as never)).toEqual(['pod-2', 'pod-4', 'pod-6', 'pod-8', 'pod-new']);
  });

  it('answers a resourceVersion beyond the current one with 504 ResourceVersionTooLarge', async () => {
    const response = await request('/api/v1/pods?resourceVersion=999999&resourceVersionMatch=NotOlderThan');
    expect(response.status).toBe(504);
    expect(response.body.reason).toBe('Timeout');
    expect(response.body.details.causes[0].type).toBe('ResourceVersionTooLarge');
  });

  it('renders a meta.k8s.io/v1 Table, with the object as metadata by default', async () => {
    const table = await request('/api/v1/namespaces/alpha/pods', {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' },
    });
    expect(table.body.kind).toBe('Table');
    expect(table.body.columnDefinitions[0].name).toBe('Name');
    expect(table.body.rows[0].cells[0]).toBe('pod-0');
    expect(table.body.rows[0].object.kind).toBe('PartialObjectMetadata');
    const none = await request('/api/v1/namespaces/alpha/pods?includeObject=None', {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    expect(none.body.rows[0].object).toBeUndefined();
  });

  it('renders PartialObjectMetadataList and PartialObjectMetadata', async () => {
    const accept = { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' };
    const list = await request('/api/v1/namespaces/alpha/pods', { headers: accept });
    expect(list.body.kind).toBe('PartialObjectMetadataList');
    expect(list.body.items[0]).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: expect.objectContaining({ name: 'pod-0' }),
    });
    const single = await request('/api/v1/namespaces/alpha/pods/pod-0', {
      headers: { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' },
    });
    expect(single.body.spec).toBeUndefined();
    expect(single.body.metadata.name).toBe('pod-0');
  });
});

describe('writes', () => {
  it('rejects an update at a stale resourceVersion with 409 Conflict', async () => {
    const current = (await request('/api/v1/namespaces/alpha/pods/pod-0')).body;
    const put = (labels: Record<string, string>) =>
      request('/api/v1/namespaces/alpha/pods/pod-0', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...current, metadata: { ...current.metadata, labels } }),
      });
    expect((await put({ v: '1' })).status).toBe(200);
    const stale = await put({ v: '2' });
    expect(stale.status).toBe(409);
    expect(stale.body.reason).toBe('Conflict');
  });

  it('creates with generateName, uid and creationTimestamp', async () => {
    const created = await request('/api/v1/namespaces/alpha/configmaps', {
      method: 'POST',
      body: JSON.stringify({ metadata: { generateName: 'settings-' }, data: { a: '1' } }),
    });
    expect(created.status).toBe(201);
    expect(created.body.metadata.name).toMatch(/^settings-[a-z0-9]{5}$/);
    expect(created.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.body.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
  });

  it('checks a dryRun=All write without storing it', async () => {
    const resourceVersion = cluster.store.resourceVersion;
    const created = await request('/api/v1/namespaces/alpha/configmaps?dryRun=All', {
      method: 'POST',
      body: JSON.stringify({ metadata: { name: 'dry' } }),
    });
    expect(created.status).toBe(201);
    expect(created.body.metadata.uid).toBeDefined();
    expect(
      (await request('/api/v1/namespaces/alpha/pods/pod-0?dryRun=All', { method: 'DELETE' })).status,
    ).toBe(200);
    expect(cluster.store.resourceVersion).toBe(resourceVersion);
    expect((await request('/api/v1/namespaces/alpha/configmaps/dry')).status).toBe(404);
  });

  it('scales through the /scale subresource', async () => {
    const deployments = cluster.resource('deployments', 'apps');
    cluster.storage.create(deployments, 'alpha', {
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'app', image: 'nginx' }] },
        },
      },
    });
    const patched = await request('/apis/apps/v1/namespaces/alpha/deployments/web/scale', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ spec: { replicas: 4 } }),
    });
    expect(patched.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 4 },
    });
    expect(
      (cluster.storage.get(deployments, 'alpha', 'web').object.spec as { replicas: number }).replicas,
    ).toBe(4);
  });

  it('deletes dependents in the background when their owner is deleted', async () => {
    const owner = cluster.storage.create(cluster.resource('configmaps'), 'alpha', {
      metadata: { name: 'owner' },
    }).object;
    cluster.storage.create(cluster.resource('secrets'), 'alpha', {
      metadata: {
        name: 'dependent',
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            name: 'owner',
            uid: owner.metadata.uid ?? '',
            controller: true,
          },
        ],
      },
    });
    expect((await request('/api/v1/namespaces/alpha/configmaps/owner', { method: 'DELETE' })).status).toBe(
      200,
    );
    expect(cluster.storage.find(cluster.resource('secrets'), 'alpha', 'dependent')).toBeDefined();
    clock.step(0);
    expect(cluster.storage.find(cluster.resource('secrets'), 'alpha', 'dependent')).toBeUndefined();
  });

  it('deletes a collection matching a label selector', async () => {
    const response = await request('/api/v1/namespaces/alpha/pods?labelSelector=app%3Dweb', {
      method: 'DELETE',
    });
    expect(response.status).toBe(200);
    expect(names(response.body)).toEqual(['pod-0', 'pod-2', 'pod-4']);
    // A PodList as a LIST's: the list says the type, its items do not.
    expect(response.body).toMatchObject({ kind: 'PodList', apiVersion: 'v1' });
    expect(response.body.items[0]).not.toHaveProperty('kind');
    expect(names((await request('/api/v1/namespaces/alpha/pods')).body)).toEqual(['pod-6', 'pod-8']);
  });

  it('serves a custom kind while its CRD exists, and stops when it is deleted', async () => {
    expect(await defineCustomKind('widgets', 'widget', 'Widget')).toBe(201);
    expect((await request('/apis')).body.groups.map((group: { name: string }) => group.name)).toContain(
      'example.kubetide.dev',
    );
    expect((await request('/apis/example.kubetide.dev/v1')).body.resources[0]).toMatchObject({
      name: 'widgets',
      kind: 'Widget',
      namespaced: true,
    });
    expect(
      (
        await request('/apis/example.kubetide.dev/v1/namespaces/alpha/widgets', {
          method: 'POST',
          body: JSON.stringify({ metadata: { name: 'w' }, spec: { size: 1 } }),
        })
      ).status,
    ).toBe(201);
    const stream = await watch(
      `/apis/example.kubetide.dev/v1/widgets?watch=true&resourceVersion=${cluster.store.resourceVersion}`,
    );
    await request('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.kubetide.dev', {
      method: 'DELETE',
    });
    expect((await request('/apis/example.kubetide.dev/v1/widgets')).status).toBe(404);
    const { lines } = await stream.rest();
    expect(lines.map((line) => JSON.parse(line).type)).toEqual(['DELETED']);
  });

  it('orphans dependents when deleted with propagationPolicy Orphan', async () => {
    const owner = cluster.storage.create(cluster.resource('configmaps'), 'alpha', {
      metadata: { name: 'owner' },
    }).object;
    const reference = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid ?? '' };
    cluster.storage.create(cluster.resource('secrets'), 'alpha', {
      metadata: { name: 'dependent', ownerReferences: [reference] },
    });
    await request('/api/v1/namespaces/alpha/configmaps/owner', {
      method: 'DELETE',
      body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' }),
    });
    clock.step(0);
    const dependent = cluster.storage.get(cluster.resource('secrets'), 'alpha', 'dependent').object;
    expect(dependent.metadata.ownerReferences).toBeUndefined();
  });
});

describe('WATCH', () => {
  it('streams the events after a resourceVersion', async () => {
    const from = cluster.store.resourceVersion;
    createPod('late', 'alpha', {}, 'node-0');
    const stream = await watch(`/api/v1/namespaces/alpha/pods?watch=true&resourceVersion=${from}`);
    expect(await stream.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'late' } } });
    cluster.storage.delete(cluster.resource('pods'), 'alpha', 'late');
    expect(await stream.next()).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'late' } } });
    stream.close();
  });

  it('sends a 410 ERROR event for a resourceVersion compacted away', async () => {
    const from = cluster.store.resourceVersion;
    createPod('late', 'alpha', {}, 'node-0');
    cluster.faults.restartCompacted();
    const stream = await watch(`/api/v1/pods?watch=true&resourceVersion=${from}`);
    expect(stream.status).toBe(200);
    expect(await stream.next()).toMatchObject({
      type: 'ERROR',
      object: { kind: 'Status', code: 410, reason: 'Expired' },
    });
    expect(await stream.nextLine()).toBeUndefined();
  });

  it('sends periodic BOOKMARKs carrying the current resourceVersion', async () => {
    const stream = await watch(
      `/api/v1/pods?watch=true&allowWatchBookmarks=true&resourceVersion=${cluster.store.resourceVersion}`,
    );
    createPod('late', 'alpha', {}, 'node-0');
    expect((await stream.next()).type).toBe('ADDED');
    clock.step(1000);
    expect(await stream.next()).toEqual({
      type: 'BOOKMARK',
      object: {
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: { resourceVersion: String(cluster.store.resourceVersion) },
      },
    });
    stream.close();
  });

  it('streams the watch-list: initial ADDED events, the initial-events-end bookmark, then live events', async () => {
    const stream = await watch(
      '/api/v1/namespaces/beta/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
    );
    const initial = [];
    for (let index = 0; index < 5; index++) initial.push(await stream.next());
    expect(initial.map((event) => [event.type, event.object.metadata.name])).toEqual(
      ['pod-1', 'pod-3', 'pod-5', 'pod-7', 'pod-9'].map((name) => ['ADDED', name]),
    );
    const bookmark = await stream.next();
    expect(bookmark.type).toBe('BOOKMARK');
    expect(bookmark.object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    createPod('late', 'beta', {}, 'node-0');
    expect(await stream.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'late' } } });
    stream.close();
  });

  it('turns a change that leaves the label selector into DELETED', async () => {
    const stream = await watch(
      `/api/v1/pods?watch=true&labelSelector=app%3Dweb&resourceVersion=${cluster.store.resourceVersion}`,
    );
    cluster.storage.mutate(cluster.resource('pods'), 'alpha', 'pod-0', (pod) => {
      pod.metadata.labels = { app: 'other' };
    });
    expect(await stream.next()).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'pod-0' } } });
    stream.close();
  });

  it('ends the stream cleanly at timeoutSeconds', async () => {
    const stream = await watch(
      `/api/v1/pods?watch=true&timeoutSeconds=5&resourceVersion=${cluster.store.resourceVersion}`,
    );
    clock.step(5000);
    expect(await stream.rest()).toEqual({ lines: [], partial: '' });
  });

  it('serves the legacy /watch/ paths and metadata-only watches', async () => {
    const stream = await watch(
      `/api/v1/watch/namespaces/alpha/pods?resourceVersion=${cluster.store.resourceVersion}`,
      {
        Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
      },
    );
    createPod('late', 'alpha', {}, 'node-0');
    const event = await stream.next();
    expect(event.type).toBe('ADDED');
    expect(event.object.kind).toBe('PartialObjectMetadata');
    expect(event.object.metadata.name).toBe('late');
    expect(event.object.spec).toBeUndefined();
    stream.close();
  });

  it('drops a watcher that falls too far behind instead of buffering without bound', async () => {
    await cluster.close();
    cluster = await startEmbeddedCluster({ clock, simulate: false, watchBufferBytes: 64 * 1024 });
    const response = await fetch(
      `${cluster.url}/api/v1/configmaps?watch=true&resourceVersion=${cluster.store.resourceVersion}`,
    );
    expect(response.status).toBe(200);
    await expect.poll(() => cluster.watches.size).toBe(1);
    const data = { blob: 'x'.repeat(64 * 1024) };
    for (let index = 0; index < 200 && cluster.watches.size > 0; index++)
      cluster.storage.create(cluster.resource('configmaps'), 'default', {
        metadata: { name: `big-${index}` },
        data,
      });
    expect(cluster.watches.size).toBe(0);
    await response.body?.cancel().catch(() => undefined);
  });
});

describe('faults', () => {
  it('answers the next matching requests with 429 and Retry-After, then serves normally', async () => {
    cluster.faults.failNext({ count: 2, code: 429, verb: 'list', path: '/pods', retryAfterSeconds: 3 });
    const first = await request('/api/v1/pods');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('3');
    expect((await request('/api/v1/namespaces')).status).toBe(200);
    expect((await request('/api/v1/pods')).status).toBe(429);
    expect((await request('/api/v1/pods')).status).toBe(200);
  });

  it('answers with 500 and 410 on demand', async () => {
    cluster.faults.failNext({ count: 1, code: 500 });
    cluster.faults.failNext({ count: 1, code: 410, verb: 'get' });
    expect((await request('/api/v1/pods')).body.reason).toBe('InternalError');
    expect((await request('/api/v1/namespaces/alpha/pods/pod-0')).status).toBe(410);
  });

  it('expires every continue token on demand', async () => {
    const first = await request('/api/v1/pods?limit=2');
    cluster.faults.expireContinueTokens();
    expect((await request(`/api/v1/pods?limit=2&continue=${first.body.metadata.continue}`)).status).toBe(410);
  });

  it('drops every open watch connection', async () => {
    const stream = await watch(`/api/v1/pods?watch=true&resourceVersion=${cluster.store.resourceVersion}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cluster.faults.dropWatches()).toBe(1);
    expect(await stream.nextLine()).toBeUndefined();
  });

  it('stalls watches: no bytes until the stall ends, then the held events in order', async () => {
    const stream = await watch(`/api/v1/pods?watch=true&resourceVersion=${cluster.store.resourceVersion}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    cluster.faults.stallWatches(10);
    createPod('held', 'alpha', {}, 'node-0');
    const pending = stream.next();
    const raced = await Promise.race([
      pending.then(() => 'event'),
      new Promise((resolve) => setTimeout(() => resolve('silence'), 100)),
    ]);
    expect(raced).toBe('silence');
    clock.step(10_000);
    expect(await pending).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'held' } } });
    stream.close();
  });

  it('sends a malformed line before the next event', async () => {
    const stream = await watch(`/api/v1/pods?watch=true&resourceVersion=${cluster.store.resourceVersion}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    cluster.faults.corruptWatches('malformed');
    createPod('after', 'alpha', {}, 'node-0');
    const bad = await stream.nextLine();
    expect(() => JSON.parse(bad ?? '')).toThrow();
    expect(await stream.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'after' } } });
    stream.close();
  });

  it('truncates the next event and closes the connection', async () => {
    const stream = await watch(`/api/v1/pods?watch=true&resourceVersion=${cluster.store.resourceVersion}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    cluster.faults.corruptWatches('truncated');
    createPod('cut', 'alpha', {}, 'node-0');
    const { lines, partial } = await stream.rest();
    expect(lines).toEqual([]);
    expect(partial.length).toBeGreaterThan(0);
    expect(() => JSON.parse(partial)).toThrow();
  });

  it('is scriptable over HTTP at /_sim/faults', async () => {
    const response = await request('/_sim/faults', {
      method: 'POST',
      body: JSON.stringify({ action: 'failNext', count: 1, code: 500, verb: 'get' }),
    });
    expect(response.body).toEqual({ ok: true });
    expect((await request('/_sim/faults')).body.pending).toEqual([{ count: 1, code: 500, verb: 'get' }]);
    expect((await request('/api/v1/namespaces/alpha/pods/pod-0')).status).toBe(500);
    expect(
      (await request('/_sim/faults', { method: 'POST', body: JSON.stringify({ action: 'nonsense' }) }))
        .status,
    ).toBe(400);
  });
});
