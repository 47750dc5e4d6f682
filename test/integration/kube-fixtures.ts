// Workload and churn for the kube integration tests, written straight into the embedded cluster's
// storage (the server under test is the HTTP side; how objects get there does not matter).
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { KubeObject } from '../../shared/kube/object';

const namespaces = ['payments', 'web', 'default'];

function pod(name: string, namespace: string, node: string): KubeObject {
  return {
    metadata: { name, namespace, labels: { app: name.split('-')[0] } },
    spec: { nodeName: node, containers: [{ name: 'app', image: 'registry.example/app:1' }] },
  };
}

function deployment(name: string, namespace: string): KubeObject {
  return {
    metadata: { name, namespace },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] },
      },
    },
  };
}

function widget(name: string, namespace: string): KubeObject {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, namespace },
    spec: { size: name.length },
  };
}

function ensureNamespace(cluster: EmbeddedCluster, namespace: string): void {
  if (!cluster.storage.find(cluster.resource('namespaces'), undefined, namespace)) {
    cluster.storage.create(cluster.resource('namespaces'), undefined, { metadata: { name: namespace } });
  }
}

/** Namespaces, 5 nodes, 36 pods, 6 deployments. */
export function seedWorkload(cluster: EmbeddedCluster): void {
  for (const namespace of namespaces) ensureNamespace(cluster, namespace);
  for (let index = 0; index < 5; index++)
    cluster.storage.create(cluster.resource('nodes'), undefined, { metadata: { name: `node-${index}` } });
  for (let index = 0; index < 36; index++) {
    const namespace = namespaces[index % namespaces.length];
    cluster.storage.create(
      cluster.resource('pods'),
      namespace,
      pod(`seed-${index}`, namespace, `node-${index % 5}`),
    );
  }
  for (let index = 0; index < 6; index++) {
    const namespace = namespaces[index % namespaces.length];
    cluster.storage.create(
      cluster.resource('deployments', 'apps'),
      namespace,
      deployment(`deploy-${index}`, namespace),
    );
  }
}

/** The custom kind widgets.example.com (namespaced, v1) and a few widgets. */
export function createWidgetDefinition(cluster: EmbeddedCluster): void {
  cluster.storage.create(cluster.resource('customresourcedefinitions', 'apiextensions.k8s.io'), undefined, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
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
  ensureNamespace(cluster, 'web');
  for (let index = 0; index < 4; index++) {
    cluster.storage.create(
      cluster.resource('widgets', 'example.com'),
      'web',
      widget(`widget-${index}`, 'web'),
    );
  }
}

/**
 * `operations` deterministic changes (creates, label updates, deletes) spread over pods, deployments,
 * widgets and (unless excluded) nodes. `round` varies the names and choices.
 */
export function churn(
  cluster: EmbeddedCluster,
  round: number,
  operations: number,
  include: { nodes?: boolean } = {},
): void {
  let state = 7919 * (round + 1);
  const next = (limit: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % limit;
  };
  const kinds =
    include.nodes === false
      ? ['pods', 'deployments', 'widgets']
      : ['pods', 'deployments', 'widgets', 'nodes'];
  for (let operation = 0; operation < operations; operation++) {
    const kind = kinds[next(kinds.length)];
    const group = kind === 'deployments' ? 'apps' : kind === 'widgets' ? 'example.com' : '';
    const type = cluster.resource(kind, group);
    const existing = [...cluster.store.values(group === '' ? kind : `${kind}.${group}`)].map(
      (stored) => stored.object.metadata,
    );
    const action = next(3);
    const namespace = namespaces[next(namespaces.length)];
    const name = `churn-${round}-${operation}`;
    if (action === 0 || existing.length === 0) {
      const object =
        kind === 'pods'
          ? pod(name, namespace, `node-${next(5)}`)
          : kind === 'deployments'
            ? deployment(name, namespace)
            : kind === 'widgets'
              ? widget(name, namespace)
              : { metadata: { name } };
      cluster.storage.create(type, kind === 'nodes' ? undefined : namespace, object);
    } else {
      const target = existing[next(existing.length)];
      if (action === 1 || kind === 'nodes') {
        cluster.storage.mutate(type, target.namespace, target.name ?? '', (object) => {
          object.metadata.labels = { ...object.metadata.labels, churn: `${round}-${operation}` };
        });
      } else {
        cluster.storage.delete(type, target.namespace, target.name ?? '');
      }
    }
  }
}
