// What a Recorder attached to every kind would capture from the ui bench's churn, as entry texts:
// the embedded cluster's own Churn (random actions over every pod, with the Events, Deployments,
// ReplicaSets, Jobs and ConfigMaps they write), each store event one change of its kind's stream,
// after an initial list of every kind the cluster holds (Secrets apart: the app never records them).
// For recording-profile.ts's `--churn broad`: the hot mode's 1,000 pods changing over and over cost
// the recording process another mix (few objects, long chains, rare keyframes) than churn spread
// over 150,000 pods does.
import { keyOf } from '../../main/history/cache-resync';
import { encodeDeltaType } from '../../main/history/recorded-change';
import type { MarkEntry } from '../../main/history/recording-protocol';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { StoredEvent } from '../../main/sim/object-store';
import type { KubeObject } from '../../shared/kube/object';
import { kubetideTransform } from './harness';

/** An entry's JSON text and the time it is recorded at. */
export type TimedText = readonly [text: string, time: number];

/** Simulated milliseconds between controller passes (reconcile, schedule) among the actions. */
const passMs = 100;

const codes = {
  ADDED: encodeDeltaType('Added', false),
  MODIFIED: encodeDeltaType('Updated', false),
  DELETED: encodeDeltaType('Deleted', false),
};

function mark(entry: MarkEntry): string {
  return JSON.stringify(entry);
}

/** "deployments.apps" and an object of apiVersion "apps/v1" -> "deployments.v1.apps". */
function gvrKeyOf(resource: string, object: KubeObject): string {
  const plural = resource.split('.')[0];
  const apiVersion = object.apiVersion ?? 'v1';
  const slash = apiVersion.indexOf('/');
  return slash === -1
    ? `${plural}.${apiVersion}`
    : `${plural}.${apiVersion.slice(slash + 1)}.${apiVersion.slice(0, slash)}`;
}

export class BroadChurn {
  /** Store resource -> stream number. */
  private readonly streams = new Map<string, number>();
  private readonly transform = kubetideTransform();
  private readonly pending: StoredEvent[] = [];
  private readonly unsubscribe: () => void;
  /** Objects in the initial list, changes since (every stream). */
  listed = 0;
  changes = 0;
  /** Changes since the list, by store resource and event type ("pods ADDED"). */
  readonly changesBy = new Map<string, number>();

  private constructor(private readonly cluster: EmbeddedCluster) {
    this.unsubscribe = cluster.store.subscribe((event) => {
      if (event.resource !== 'secrets') this.pending.push(event);
    });
  }

  static async start(pods: number): Promise<BroadChurn> {
    // The controller loop is run by hand between actions (see churn), not on the wall clock.
    const cluster = await startEmbeddedCluster({
      pods,
      seed: 7,
      metrics: false,
      simulation: { intervalMs: 1e9, churnPerSecond: 0 },
    });
    return new BroadChurn(cluster);
  }

  /** Every kind's initial list at `time`, each its own stream. */
  *list(time: number): Generator<TimedText> {
    this.pending.length = 0;
    for (const resource of this.cluster.store.resources()) {
      if (resource === 'secrets') continue;
      const objects = [...this.cluster.store.values(resource)];
      if (objects.length === 0) continue;
      const stream = this.open(resource);
      yield [
        mark({ mark: 'stream', stream, gvr: gvrKeyOf(resource, objects[0].object), scope: '', time }),
        time,
      ];
      yield [mark({ mark: 'list-start', stream }), time];
      for (const stored of objects) {
        this.listed++;
        yield [this.change(time, stream, 'Replaced', stored.object), time];
      }
      yield [mark({ mark: 'list-applied', stream, time, reason: 'initial-list', detail: 'profile' }), time];
    }
  }

  /**
   * `actions` random actions from `start`, `rate` a second of recorded time, a controller pass every
   * passMs; each store event a change at its action's time. A kind first seen here opens its stream.
   */
  *churn(actions: number, rate: number, start: number): Generator<TimedText> {
    const perPass = Math.max(1, Math.round((rate * passMs) / 1000));
    for (let done = 0; done < actions; done += perPass) {
      const time = start + Math.floor((done * 1000) / rate);
      this.cluster.churn.step(Math.min(perPass, actions - done));
      this.cluster.simulation!.tick();
      const events = this.pending.splice(0);
      for (const event of events) {
        const object = event.stored.object;
        let stream = this.streams.get(event.resource);
        if (stream === undefined) {
          stream = this.open(event.resource);
          yield [
            mark({ mark: 'stream', stream, gvr: gvrKeyOf(event.resource, object), scope: '', time }),
            time,
          ];
          yield [mark({ mark: 'list-start', stream }), time];
          yield [
            mark({ mark: 'list-applied', stream, time, reason: 'initial-list', detail: 'profile' }),
            time,
          ];
        }
        this.changes++;
        const what = `${event.resource} ${event.type}`;
        this.changesBy.set(what, (this.changesBy.get(what) ?? 0) + 1);
        yield [this.change(time, stream, event.type, object), time];
      }
    }
  }

  async close(): Promise<void> {
    this.unsubscribe();
    await this.cluster.close();
  }

  private open(resource: string): number {
    const stream = this.streams.size + 1;
    this.streams.set(resource, stream);
    return stream;
  }

  /** A change's entry, its object compacted as the app's informers compact it. */
  private change(
    time: number,
    stream: number,
    type: keyof typeof codes | 'Replaced',
    object: KubeObject,
  ): string {
    const code = type === 'Replaced' ? encodeDeltaType('Replaced', false) : codes[type];
    const compacted = this.transform(JSON.parse(JSON.stringify(object))) as KubeObject;
    return `[${time},${stream},${code},${JSON.stringify(keyOf(compacted))},${JSON.stringify(compacted)}]`;
  }
}
