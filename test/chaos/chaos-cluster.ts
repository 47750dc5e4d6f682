// The server side of a chaos run: the embedded cluster with its own churn, a custom kind with churn of
// ours (the simulator's churn does not touch custom resources), and the fault injector driven from a
// schedule. The continue-token trap sits in the ListerWatcher, because only there is "the middle of a
// paged LIST" visible: it expires every continue token just before a continuation page is requested.
import type { ListerWatcherFactory } from '../../main/cache/informer-factory';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import type { ScheduledFault } from './fault-schedule';
import type { SeededRandom } from '../support/seeded-random';
import { versionsOf } from './state-comparison';
import type { VersionMap } from './state-comparison';

export const widgets: GroupVersionResource = { group: 'example.com', version: 'v1', resource: 'widgets' };

/** The kinds every chaos run informs on, and the simulator's storage name of each. */
export const chaosResources: readonly { gvr: GroupVersionResource; storage: string }[] = [
  { gvr: { group: '', version: 'v1', resource: 'pods' }, storage: 'pods' },
  { gvr: { group: 'apps', version: 'v1', resource: 'deployments' }, storage: 'deployments.apps' },
  { gvr: { group: 'apps', version: 'v1', resource: 'replicasets' }, storage: 'replicasets.apps' },
  { gvr: { group: '', version: 'v1', resource: 'nodes' }, storage: 'nodes' },
  { gvr: { group: '', version: 'v1', resource: 'events' }, storage: 'events' },
  { gvr: widgets, storage: 'widgets.example.com' },
];

const widgetNamespace = 'default';

/** Serves widgets.example.com and creates `count` widgets. */
export function defineWidgets(cluster: EmbeddedCluster, count: number): void {
  cluster.storage.create(cluster.resource('customresourcedefinitions', 'apiextensions.k8s.io'), undefined, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  });
  for (let index = 0; index < count; index++) createWidget(cluster, `widget-${index}`, index);
}

function createWidget(cluster: EmbeddedCluster, name: string, size: number): void {
  const widget: KubeObject = {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, namespace: widgetNamespace },
    spec: { size },
  };
  cluster.storage.create(cluster.resource('widgets', 'example.com'), widgetNamespace, widget);
}

/** One random create, update or delete of a widget. */
export function churnWidgets(cluster: EmbeddedCluster, random: SeededRandom, step: number): void {
  const type = cluster.resource('widgets', 'example.com');
  const existing = [...cluster.store.values('widgets.example.com')].map((stored) => stored.object);
  const action = existing.length < 5 ? 0 : random.integer(3);
  if (action === 0) {
    createWidget(cluster, `widget-churn-${step}`, step);
    return;
  }
  const target = random.pick(existing).metadata.name ?? '';
  if (action === 1) {
    cluster.storage.mutate(type, widgetNamespace, target, (object) => {
      object.spec = { size: step };
    });
  } else {
    cluster.storage.delete(type, widgetNamespace, target);
  }
}

/** The server's state of every chaos resource, read from its storage (not over HTTP, which may be faulted). */
export function serverVersions(cluster: EmbeddedCluster): Map<string, VersionMap> {
  const state = new Map<string, VersionMap>();
  for (const { gvr, storage } of chaosResources) {
    state.set(gvr.resource, versionsOf([...cluster.store.values(storage)].map((stored) => stored.object)));
  }
  return state;
}

/** Expires continue tokens just before the next continuation page of an armed resource. */
export class ContinueTokenTrap {
  private armed = new Set<string>();

  constructor(private readonly cluster: EmbeddedCluster) {}

  arm(path: string): void {
    this.armed.add(path);
  }

  disarm(): void {
    this.armed.clear();
  }

  /** Wraps a ListerWatcherFactory so that its LISTs pass through the trap. */
  wrap(inner: ListerWatcherFactory): ListerWatcherFactory {
    return (gvr, namespace, tweak) => {
      const listerWatcher = inner(gvr, namespace, tweak);
      const path = `/${gvr.resource}`;
      return {
        supportsWatchList: listerWatcher.supportsWatchList,
        list: (options, signal) => {
          if (options.continue && this.armed.delete(path)) this.cluster.faults.expireContinueTokens();
          return listerWatcher.list(options, signal);
        },
        watch: (options, signal) => listerWatcher.watch(options, signal),
      };
    };
  }
}

/** Injects one scheduled fault now. */
export function injectFault(cluster: EmbeddedCluster, trap: ContinueTokenTrap, fault: ScheduledFault): void {
  const faults = cluster.faults;
  switch (fault.kind) {
    case 'drop':
      faults.dropWatches();
      return;
    case 'gone':
    case 'throttle':
    case 'server-error':
      faults.failNext({
        count: fault.count ?? 1,
        code: fault.kind === 'gone' ? 410 : fault.kind === 'throttle' ? 429 : 500,
        verb: fault.verb,
        ...(fault.path ? { path: fault.path } : {}),
        ...(fault.kind === 'throttle' ? { retryAfterSeconds: 1 } : {}),
      });
      return;
    case 'stall':
      faults.stallWatches((fault.stallMs ?? 0) / 1000);
      return;
    case 'truncated':
    case 'malformed':
      faults.corruptWatches(fault.kind);
      return;
    case 'restart-compacted':
      faults.restartCompacted();
      return;
    case 'blackhole':
      faults.blackholeConnections();
      return;
    case 'continue-expiry':
      // The watch of that path fails with 410, so its Reflector relists from scratch, in pages;
      // the trap expires the tokens before the second page.
      trap.arm(fault.path ?? '/pods');
      faults.failNext({ count: 1, code: 410, verb: 'watch', path: fault.path ?? '/pods' });
      faults.dropWatches();
      return;
  }
}
