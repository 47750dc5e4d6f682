// Reads the recorded metric samples (see MetricSampleWriter) in the history query worker: the usage
// of every pod or node at a moment of the past (the CPU and MEM columns while travelling), and one
// subject's usage over the recording (the History tab's chart). A recording from before format 4 has
// no metric tables and answers no samples.
import type {
  RecordedMetrics,
  RecordedUsage,
  UsagePoint,
  UsageSubject,
} from '../../shared/protocol/history-messages';
import { decodeMetricSampleFields, decodeMetricSamples } from './metric-sample-codec';
import { hasMetricTables } from './metric-sample-store';
import { readMeta } from './schema';
import type { SqliteDatabase } from './schema';

/** metrics-server's default resolution, for a sample whose window was not reported. */
const defaultWindowMs = 15_000;

interface SeriesRow {
  id: number;
  namespace: string;
  name: string;
  uid: string;
}

interface SampleRow {
  time: number;
  payload: Buffer;
}

/**
 * Each object's latest sample taken at or before `time` and no older than two of its windows (a
 * later one is the next scrape: the object was still sampled then). Containers are summed per pod;
 * when a pod's name was reused within that span, the newest incarnation's samples count.
 */
export function metricsAt(
  database: SqliteDatabase,
  resource: 'pods' | 'nodes',
  time: number,
): RecordedMetrics {
  const none: RecordedMetrics = { keys: [], cpu: [], memory: [] };
  if (!hasMetricTables(database)) return none;
  const latest = database
    .prepare(
      'SELECT window_ms FROM metric_samples WHERE resource = ? AND time <= ? ORDER BY time DESC LIMIT 1',
    )
    .get(resource, time) as { window_ms: number } | undefined;
  if (!latest) return none;
  const windowMs = latest.window_ms || defaultWindowMs;
  // A row's time is its newest sample's: one stamped a window after `time` may hold earlier samples.
  const rows = database
    .prepare(
      'SELECT time, payload FROM metric_samples WHERE resource = ? AND time >= ? AND time <= ? ORDER BY time',
    )
    .all(resource, time - 3 * windowMs, time + windowMs) as SampleRow[];
  const series = seriesOf(database, resource);
  const size = series.byId.length;
  // Each series' chosen sample, by series id (ids are dense: numbered as defined), and the ids in the
  // order first chosen: the order objects are summed and listed in, as a Map of them had it.
  const chosen = new Uint8Array(size);
  const chosenAt = new Float64Array(size);
  const millicoresOf = new Float64Array(size);
  const bytesOf = new Float64Array(size);
  const order: number[] = [];
  for (const row of rows)
    decodeMetricSampleFields(row.time, row.payload, (id, timestamp, sampleWindowMs, millicores, bytes) => {
      if (timestamp > time || timestamp < time - 2 * (sampleWindowMs || defaultWindowMs)) return;
      // A series without a name here (none such is written) is left out, as below.
      if (id >= size) return;
      if (chosen[id] === 0) {
        chosen[id] = 1;
        order.push(id);
      } else if (chosenAt[id] > timestamp) return;
      chosenAt[id] = timestamp;
      millicoresOf[id] = millicores;
      bytesOf[id] = bytes;
    });
  if (order.length === 0) return none;
  // Per object (namespace/name): the uid counted, its newest sample, its containers' sums.
  const objects = series.keys.length;
  const uidOf = new Array<string | undefined>(objects);
  const objectTime = new Float64Array(objects);
  const objectMillicores = new Float64Array(objects);
  const objectBytes = new Float64Array(objects);
  const listed: number[] = [];
  for (const id of order) {
    const named = series.byId[id];
    if (!named) continue;
    const { object, uid } = named;
    const timestamp = chosenAt[id];
    const counted = uidOf[object];
    if (counted === undefined || (counted !== uid && objectTime[object] < timestamp)) {
      if (counted === undefined) listed.push(object);
      uidOf[object] = uid;
      objectTime[object] = timestamp;
      objectMillicores[object] = millicoresOf[id];
      objectBytes[object] = bytesOf[id];
    } else if (counted === uid) {
      objectMillicores[object] += millicoresOf[id];
      objectBytes[object] += bytesOf[id];
      objectTime[object] = Math.max(objectTime[object], timestamp);
    }
  }
  const result = { ...none, timestamp: 0, windowMs };
  for (const object of listed) {
    result.keys.push(series.keys[object]);
    result.cpu.push(objectMillicores[object] / 1000);
    result.memory.push(objectBytes[object]);
    result.timestamp = Math.max(result.timestamp, objectTime[object]);
  }
  return result;
}

/**
 * `subject`'s usage summed per recorded poll in [from, to] (default: all), oldest first: every poll when the recording holds at
 * most `points` of them, else `points` polls evenly spread over it (each a real poll, never an
 * average, so a point reads as what the columns showed at its moment). Polls without the subject are
 * left out.
 */
export function usageOver(
  database: SqliteDatabase,
  subject: UsageSubject,
  points: number,
  range: { readonly from?: number | undefined; readonly to?: number | undefined } = {},
): RecordedUsage {
  if (!hasMetricTables(database) || points < 1) return { points: [] };
  const resource = subject.kind === 'Node' ? 'nodes' : 'pods';
  const matching = subjectSeries(database, subject);
  if (matching.size === 0) return { points: [] };
  const polls = database
    .prepare('SELECT id FROM metric_samples WHERE resource = ? AND time >= ? AND time <= ? ORDER BY time, id')
    .all(resource, range.from ?? 0, range.to ?? Number.MAX_SAFE_INTEGER) as { id: number }[];
  const picked =
    polls.length <= points
      ? polls
      : Array.from(
          { length: points },
          (_, index) => polls[Math.round((index * (polls.length - 1)) / Math.max(1, points - 1))]!,
        );
  const read = database.prepare('SELECT time, payload FROM metric_samples WHERE id = ?');
  const result: UsagePoint[] = [];
  for (const { id } of picked) {
    const row = read.get(id) as SampleRow;
    let millicores = 0;
    let bytes = 0;
    const objects = new Set<string>();
    decodeMetricSamples(row.time, row.payload, (sample) => {
      const object = matching.get(sample.series);
      if (object === undefined) return;
      millicores += sample.millicores;
      bytes += sample.bytes;
      objects.add(object);
    });
    if (objects.size > 0)
      result.push({ time: row.time, cpu: millicores / 1000, memory: bytes, objects: objects.size });
  }
  return { points: result };
}

/**
 * The subject's series ids -> the object each samples ("namespace/name/uid"). A workload's are its
 * pods' series, and those of the same pods sampled before the informer had them (no uid, no workload
 * known then: the first polls of a session).
 */
function subjectSeries(database: SqliteDatabase, subject: UsageSubject): Map<number, string> {
  const select = 'SELECT id, namespace, name, uid FROM metric_series';
  const rows = (
    subject.kind === 'Node'
      ? database.prepare(`${select} WHERE resource = 'nodes' AND name = ?`).all(subject.name)
      : subject.kind === 'Pod'
        ? database
            .prepare(`${select} WHERE resource = 'pods' AND namespace = ? AND name = ?`)
            .all(subject.namespace, subject.name)
        : database
            .prepare(
              `${select} WHERE resource = 'pods' AND namespace = @namespace AND (workload = @workload OR (uid = '' AND name IN
                 (SELECT name FROM metric_series WHERE resource = 'pods' AND namespace = @namespace AND workload = @workload)))`,
            )
            .all({ namespace: subject.namespace, workload: `${subject.kind}/${subject.name}` })
  ) as SeriesRow[];
  // A pod sampled before and after its informer knew it is one object, not two.
  const uids = new Map<string, string>();
  for (const row of rows) if (row.uid) uids.set(`${row.namespace}/${row.name}`, row.uid);
  return new Map(
    rows.map((row) => {
      const key = `${row.namespace}/${row.name}`;
      return [row.id, `${key}/${row.uid || uids.get(key) || ''}`];
    }),
  );
}

/** A series as a moment's metrics read it: the object it samples (see ResourceSeries.keys), and its uid. */
interface NamedSeries {
  readonly object: number;
  readonly uid: string;
}

/** A resource's series as last read: by id, each naming its object by number. */
interface ResourceSeries {
  /** Series id -> its object and uid (ids of another resource are holes). */
  readonly byId: (NamedSeries | undefined)[];
  /** Object number -> its key ("namespace/name", or a node's name): each made once. */
  readonly keys: string[];
  readonly objectOf: Map<string, number>;
  lastId: number;
}

/** A database's series, per resource, as last read (see seriesOf). */
interface KnownSeries {
  /** The recording's start when read: retention deletes series and moves it. */
  readonly start: string | undefined;
  readonly byResource: Map<string, ResourceSeries>;
}

const knownSeries = new WeakMap<SqliteDatabase, KnownSeries>();

/**
 * Every series of `resource`. A series' names and uid never change once written (only its last_time
 * does), and new ones are numbered after the last: each call reads only the series added since the
 * previous one, where reading them all cost most of a past moment's metrics (a second at 50,000 pods
 * under churn, asked at each travel and again and again while playback moves the moment). Retention
 * deletes old series and moves the recording's start: they are read afresh then.
 */
function seriesOf(database: SqliteDatabase, resource: string): ResourceSeries {
  const start = readMeta(database, 'start');
  let known = knownSeries.get(database);
  if (!known || known.start !== start) knownSeries.set(database, (known = { start, byResource: new Map() }));
  let series = known.byResource.get(resource);
  if (!series)
    known.byResource.set(resource, (series = { byId: [], keys: [], objectOf: new Map(), lastId: 0 }));
  const added = database
    .prepare('SELECT id, namespace, name, uid FROM metric_series WHERE resource = ? AND id > ? ORDER BY id')
    .all(resource, series.lastId) as SeriesRow[];
  for (const row of added) {
    const key = row.namespace ? `${row.namespace}/${row.name}` : row.name;
    let object = series.objectOf.get(key);
    if (object === undefined) {
      object = series.keys.length;
      series.keys.push(key);
      series.objectOf.set(key, object);
    }
    series.byId[row.id] = { object, uid: row.uid };
  }
  if (added.length > 0) series.lastId = added[added.length - 1].id;
  return series;
}
