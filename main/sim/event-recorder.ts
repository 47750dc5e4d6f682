// core/v1 Events about what the simulated controllers do (Scheduled, Pulled, Started, BackOff,
// ScalingReplicaSet, SuccessfulCreate, NodeNotReady, Completed...). Events are capped: beyond
// `maximumEvents` the oldest are deleted, as the apiserver's event TTL would eventually do.
import type { KubeObject } from '../../shared/kube/object';
import type { ClusterStorage } from './cluster-storage';
import type { SimClock } from './clock';
import { formatTime } from './clock';
import type { SeededRandom } from './random';
import type { ResourceType } from './resource-type';

export type EventType = 'Normal' | 'Warning';

export class EventRecorder {
  private readonly recorded: { namespace: string; name: string }[] = [];
  private readonly eventType: ResourceType;

  constructor(
    private readonly storage: ClusterStorage,
    private readonly clock: SimClock,
    private readonly random: SeededRandom,
    private readonly maximumEvents = 2000,
  ) {
    const type = storage.catalog.findAnyVersion('', 'events');
    if (!type) throw new Error('events are not served');
    this.eventType = type;
  }

  record(involved: KubeObject, type: EventType, reason: string, message: string, component: string): void {
    const namespace = involved.metadata.namespace ?? 'default';
    const time = formatTime(this.clock.now());
    const name = `${involved.metadata.name}.${this.random.int(0x7fffffff).toString(16).padStart(8, '0')}${this.random.int(0xffff).toString(16)}`;
    const event: KubeObject = {
      metadata: { name, namespace },
      involvedObject: {
        kind: involved.kind,
        namespace: involved.metadata.namespace,
        name: involved.metadata.name,
        uid: involved.metadata.uid,
        apiVersion: involved.apiVersion,
        resourceVersion: involved.metadata.resourceVersion,
      },
      reason,
      message,
      source: { component },
      firstTimestamp: time,
      lastTimestamp: time,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: component,
      reportingInstance: '',
    };
    try {
      this.storage.create(this.eventType, namespace, event);
    } catch {
      return;
    }
    this.recorded.push({ namespace, name });
    while (this.recorded.length > this.maximumEvents) {
      const oldest = this.recorded.shift();
      if (oldest && this.storage.find(this.eventType, oldest.namespace, oldest.name))
        this.storage.delete(this.eventType, oldest.namespace, oldest.name);
    }
  }
}
