// A custom kind for every seeded cluster, so the CRD path (discovery, printer columns, informers over a
// group the built-ins don't use) is exercised from the first start, as on any real cluster. Created
// through ClusterStorage, not loaded raw, because a CRD must also be registered in the catalog.
import type { KubeObject } from '../../shared/kube/object';
import type { ClusterStorage } from './cluster-storage';
import type { SeededRandom } from './random';
import type { ResourceType } from './resource-type';

export const certificateGroup = 'certs.kubetide.dev';

const definition: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `certificates.${certificateGroup}` },
  spec: {
    group: certificateGroup,
    scope: 'Namespaced',
    names: { plural: 'certificates', singular: 'certificate', kind: 'Certificate', shortNames: ['cert'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        additionalPrinterColumns: [
          { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
          { name: 'Secret', type: 'string', jsonPath: '.spec.secretName' },
          { name: 'Issuer', type: 'string', jsonPath: '.spec.issuerRef.name', priority: 1 },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      },
    ],
  },
};

const hosts = ['api', 'www', 'auth', 'billing', 'search'];

/** The CRD plus a few certificates in each of the first namespaces. */
export function seedCustomResources(
  storage: ClusterStorage,
  resource: (name: string, group?: string) => ResourceType,
  namespaces: readonly string[],
  random: SeededRandom,
): void {
  storage.create(
    resource('customresourcedefinitions', 'apiextensions.k8s.io'),
    undefined,
    structuredClone(definition),
  );
  const certificates = resource('certificates', certificateGroup);
  for (const namespace of namespaces.slice(0, 10)) {
    for (const host of hosts.slice(0, 2 + random.int(3))) {
      const ready = random.next() < 0.9 ? 'True' : 'False';
      storage.create(certificates, namespace, {
        metadata: { name: `${host}-tls`, labels: { app: host } },
        spec: {
          secretName: `${host}-tls`,
          dnsNames: [`${host}.${namespace}.example.com`],
          issuerRef: { name: 'letsencrypt', kind: 'ClusterIssuer' },
        },
        status: {
          conditions: [{ type: 'Ready', status: ready, reason: ready === 'True' ? 'Issued' : 'Pending' }],
        },
      });
    }
  }
}
