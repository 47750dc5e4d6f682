// The session's one-off reads of single objects: the detail pane's object, one Secret value for the
// Reveal control, and an object's Events. A running feed's cache answers when it can (no API call);
// otherwise a LIST narrowed by field selector asks the API server, bounded in time. What leaves here
// for a renderer is sanitized (Secret values masked).
import type { ListerWatcherFactory } from '../cache/informer-factory';
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import { StatusError, newStatus } from '../../shared/kube/status';
import type { InvolvedObject } from '../../shared/protocol/client-messages';
import type { RevealedSecretValue } from '../../shared/protocol/server-messages';
import type { FeedRegistry } from './feed-registry';
import type { FeedView } from './feed-view';
import { sanitizeObject } from './object-sanitizer';

const eventsResource: GroupVersionResource = { group: '', version: 'v1', resource: 'events' };
const secretsResource: GroupVersionResource = { group: '', version: 'v1', resource: 'secrets' };

export class ClusterReads {
  constructor(
    private readonly feeds: FeedRegistry<FeedView>,
    private readonly newListerWatcher: ListerWatcherFactory,
    /** Bounds each request to the API server. */
    private readonly requestTimeoutMs: number,
  ) {}

  /**
   * The object for the detail pane, from a running feed's cache when there is one (no API call),
   * otherwise by a LIST narrowed to its name; Secret values masked. Throws a NotFound StatusError when
   * it does not exist.
   */
  async getObject(gvr: GroupVersionResource, namespace: string, name: string): Promise<KubeObject> {
    return sanitizeObject(await this.fetchObject(gvr, namespace, name), gvr);
  }

  /**
   * One value of a Secret, for the Reveal control: data[key] as stored (base64), or stringData[key]
   * encoded. Only this value leaves main; it is neither logged nor recorded (Secrets never are).
   */
  async revealSecretValue(namespace: string, name: string, key: string): Promise<RevealedSecretValue> {
    const secret = await this.fetchObject(secretsResource, namespace, name);
    const data = secret.data as Record<string, unknown> | undefined;
    const stringData = secret.stringData as Record<string, unknown> | undefined;
    const value = data?.[key] ?? stringData?.[key];
    if (typeof value !== 'string') {
      throw new StatusError(
        newStatus(404, 'NotFound', `secret "${name}" in namespace ${namespace} has no key ${key}`),
      );
    }
    return { base64: data?.[key] === value ? value : Buffer.from(value).toString('base64') };
  }

  /** core/v1 Events whose involvedObject is the given object, oldest first. */
  async listEvents(involved: InvolvedObject): Promise<KubeObject[]> {
    const selector = [`involvedObject.kind=${involved.kind}`, `involvedObject.name=${involved.name}`];
    if (involved.namespace) selector.push(`involvedObject.namespace=${involved.namespace}`);
    if (involved.uid) selector.push(`involvedObject.uid=${involved.uid}`);
    const listerWatcher = this.newListerWatcher(eventsResource, involved.namespace ?? '', (options) => {
      options.fieldSelector = selector.join(',');
    });
    const list = await listerWatcher.list({}, AbortSignal.timeout(this.requestTimeoutMs));
    return list.items
      .map((item) => sanitizeObject(item, eventsResource))
      .sort((left, right) => eventTime(left) - eventTime(right));
  }

  /** The object as the cache or the API server has it: never hand this to a renderer unsanitized. */
  private async fetchObject(gvr: GroupVersionResource, namespace: string, name: string): Promise<KubeObject> {
    const cached =
      this.feeds.find(gvr, namespace)?.cachedObject(namespace, name) ??
      this.feeds.find(gvr, '')?.cachedObject(namespace, name);
    if (cached) return cached;
    const listerWatcher = this.newListerWatcher(gvr, namespace, (options) => {
      options.fieldSelector = `metadata.name=${name}`;
    });
    const list = await listerWatcher.list({}, AbortSignal.timeout(this.requestTimeoutMs));
    const found = list.items.find((item) => item.metadata.name === name);
    if (!found) {
      const where = namespace ? ` in namespace ${namespace}` : '';
      throw new StatusError(newStatus(404, 'NotFound', `${gvrKey(gvr)} "${name}" not found${where}`));
    }
    return found;
  }
}

function eventTime(event: KubeObject): number {
  const candidates = [
    event.lastTimestamp,
    event.eventTime,
    event.firstTimestamp,
    event.metadata.creationTimestamp,
  ];
  for (const candidate of candidates) {
    if (typeof candidate === 'string') {
      const parsed = Date.parse(candidate);
      if (!Number.isNaN(parsed)) return parsed;
    }
  }
  return 0;
}
