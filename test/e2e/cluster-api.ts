// The e2e tests' view of the embedded cluster through its HTTP API, the way kubectl sees it: the
// ground truth the UI's rows are compared with, and the way changes are made behind the UI's back.
// Over TLS it trusts the cluster's CA, and it sends the administrator's token, as kubectl does
// through the kubeconfig.
import http from 'node:http';
import https from 'node:https';

interface Reply {
  ok: boolean;
  status: number;
  text: string;
}
export interface PodSummary {
  namespace: string;
  name: string;
  node: string;
  labels: Record<string, string>;
  owners: OwnerReference[];
}

interface OwnerReference {
  kind: string;
  name: string;
  uid: string;
}

interface PodList {
  items: {
    metadata: {
      namespace: string;
      name: string;
      labels?: Record<string, string>;
      ownerReferences?: OwnerReference[];
    };
    spec?: { nodeName?: string };
  }[];
}

/**
 * The pods a ReplicaSet owns, in the list's order. A test that deletes a pod and expects its name gone
 * takes one of these: a StatefulSet's pod (db-0 ...) is made again under the same name, and the seed,
 * random per run, decides how many ReplicaSet pods sort before the first db-N.
 */
export const replicaSetPods = (pods: PodSummary[]): PodSummary[] =>
  pods.filter((pod) => pod.owners.some((owner) => owner.kind === 'ReplicaSet'));

/** What a client needs of an embedded cluster: its URL, its CA (with TLS) and its administrator's token. */
export interface ClusterAddress {
  readonly url: string;
  readonly certificateAuthority?: string;
  readonly administratorToken: string;
}

export class ClusterApi {
  private readonly url: string;
  private readonly certificateAuthority: string | undefined;
  private readonly authorization: string;

  constructor(cluster: ClusterAddress) {
    this.url = cluster.url;
    this.certificateAuthority = cluster.certificateAuthority;
    // As the kubeconfig's user: the app's embedded cluster refuses requests without its token.
    this.authorization = `Bearer ${cluster.administratorToken}`;
  }

  /** One request on a connection of its own. */
  private request(
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) {
    const url = `${this.url}${path}`;
    const transport = url.startsWith('https:') ? https : http;
    return new Promise<Reply>((resolve, reject) => {
      const request = transport.request(
        url,
        {
          method: init.method ?? 'GET',
          headers: { Authorization: this.authorization, ...init.headers },
          ca: this.certificateAuthority,
          agent: false,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            resolve({
              ok: status >= 200 && status < 300,
              status,
              text: Buffer.concat(chunks).toString('utf8'),
            });
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(init.body);
    });
  }

  /** kubectl get pods -A [-l selector] [--field-selector ...] */
  async pods(
    options: { labelSelector?: string; fieldSelector?: string; namespace?: string } = {},
  ): Promise<PodSummary[]> {
    const query = new URLSearchParams();
    if (options.labelSelector) query.set('labelSelector', options.labelSelector);
    if (options.fieldSelector) query.set('fieldSelector', options.fieldSelector);
    const path = options.namespace ? `/api/v1/namespaces/${options.namespace}/pods` : '/api/v1/pods';
    const response = await this.request(`${path}?${query}`);
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${response.text}`);
    const list = JSON.parse(response.text) as PodList;
    return list.items.map((pod) => ({
      namespace: pod.metadata.namespace,
      name: pod.metadata.name,
      node: pod.spec?.nodeName ?? '',
      labels: pod.metadata.labels ?? {},
      owners: pod.metadata.ownerReferences ?? [],
    }));
  }

  /** kubectl get replicasets -A: each one's uid and owner references. */
  async replicaSets(): Promise<{ uid: string; owners: OwnerReference[] }[]> {
    const response = await this.request('/apis/apps/v1/replicasets');
    if (!response.ok) throw new Error(`GET replicasets: ${response.status} ${response.text}`);
    const list = JSON.parse(response.text) as {
      items: { metadata: { uid: string; ownerReferences?: OwnerReference[] } }[];
    };
    return list.items.map((set) => ({ uid: set.metadata.uid, owners: set.metadata.ownerReferences ?? [] }));
  }

  /** How many reply bodies the cluster has gzipped (GET /_sim/stats; a real API server gzips LISTs). */
  async compressedResponses(): Promise<number> {
    const response = await this.request('/_sim/stats');
    if (!response.ok) throw new Error(`GET /_sim/stats: ${response.status} ${response.text}`);
    return (JSON.parse(response.text) as { compressedResponses: number }).compressedResponses;
  }

  /** kubectl get events -A: how many there are. */
  async eventCount(): Promise<number> {
    const response = await this.request('/api/v1/events');
    if (!response.ok) throw new Error(`GET events: ${response.status} ${response.text}`);
    return (JSON.parse(response.text) as { items: unknown[] }).items.length;
  }

  /** kubectl label pod NAME key=value --overwrite */
  async labelPod(namespace: string, name: string, labels: Record<string, string>): Promise<void> {
    const response = await this.request(`/api/v1/namespaces/${namespace}/pods/${name}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { labels } }),
    });
    if (!response.ok) throw new Error(`PATCH pod ${namespace}/${name}: ${response.status} ${response.text}`);
  }

  /** kubectl delete pod NAME --grace-period=0 */
  async deletePod(namespace: string, name: string): Promise<void> {
    const response = await this.request(`/api/v1/namespaces/${namespace}/pods/${name}?gracePeriodSeconds=0`, {
      method: 'DELETE',
    });
    if (!response.ok) throw new Error(`DELETE pod ${namespace}/${name}: ${response.status} ${response.text}`);
  }
}
