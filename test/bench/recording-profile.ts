// The recording process's own work, alone: a RecordingServer (the worker's code) fed the batches a
// Recorder would send for an initial list of `--list` pods from the embedded cluster, then
// `--events` MODIFIED pods over the first 1,000 of them (history-stream.ts's versions). No informer,
// no worker thread, no other process competes: this thread's CPU time is the figure, per object of
// the initial list and per change of the stream, with a V8 CPU profile of each phase when asked.
//
//   npx tsx test/bench/recording-profile.ts --list 20000 --events 100000 [--rate 20000] [--frames off]
//     [--batch-bytes B] [--flush-ms MS] [--list-batch-bytes B] [--profile DIR] [--churn broad]
//     [--list-order key|shard]
//
// `--churn broad` records instead what the ui bench's churn makes (its random actions over every
// listed pod, the Events, Deployments, ReplicaSets, Jobs and ConfigMaps they write): the embedded
// cluster's own Churn performs `--events` actions at `--rate` actions per second of recorded time, each
// store event becoming a change of its kind's stream; every kind the cluster holds (Secrets apart, as
// the app) is listed first. The figures are then per action and per change of every stream.
//
// `--rate` is the stream's changes per second of recorded time (each batch is sent at its last
// change's time): row frames are due by time as well as by count, so a slow stream projects more
// rows per change. `--frames off` records without row frames (RowFrameWriter), to see what they cost;
// `--frame-interval MS` sets their interval. `--list-order shard` records the list in the informer's
// cache's own order (shard by shard, every namespace interleaved), as whole-cache records were taken
// before KeyOrderedSnapshot; the default is the key order they are taken in now.
//
// Batches are built before each phase is timed (the informer's side is not what is measured), at
// the Recorder's sizes (a batch goes at 1 MiB, a list's, a whole cache recorded, at 4 MiB) and, as its
// flush timer, once `--flush-ms` of recorded time passed since the last one (the Recorder's default;
// 0 batches by size alone, as before session 25), in a CaptureQueue, from texts as StreamTap writes them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeDeltaType } from '../../main/history/recorded-change';
import type { MarkEntry, RecordingReply } from '../../main/history/recording-protocol';
import { RecordingServer } from '../../main/history/recording-server';
import type { TakenBatch } from '../../main/history/capture-queue';
import { CaptureQueue } from '../../main/history/capture-queue';
import {
  batchBytes,
  defaultFlushIntervalMs,
  wholeCacheBatchBytes,
} from '../../main/history/recorder-options';
import { threadCpuMs } from '../../main/history/thread-cpu-time';
import type { KubeList, KubeObject } from '../../shared/kube/object';
import { keyOf } from '../../main/history/cache-resync';
import { KeyOrderedSnapshot } from '../../main/history/key-ordered-snapshot';
import { ShardedMap } from '../../main/cache/sharded-map';
import { getBody, kubetideTransform } from './harness';
import { nextVersion } from './history-stream';
import { RecordingWriter } from '../../main/history/recording-writer';
import { openRecording } from '../../main/history/recording-reader';
import { stateAt } from '../../main/history/replay';
import { BroadChurn } from './broad-churn';
import { startClusterProcess } from './ui-cluster';
import type { TimedText } from './broad-churn';

/** CPU time of the writer's stages the profile cannot tell apart by function, in ms. */
const stageCpuMs = { frames: 0, keyframes: 0 };

/** Counts the thread's CPU time in `method` of RecordingWriter's prototype towards `stage`. */
function timeStage(stage: keyof typeof stageCpuMs, method: 'writeRowFramesDue' | 'writeKeyframe'): void {
  const prototype = RecordingWriter.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = prototype[method];
  prototype[method] = function (this: RecordingWriter, ...args: unknown[]) {
    const started = threadCpuMs()!;
    try {
      return original.apply(this, args);
    } finally {
      stageCpuMs[stage] += threadCpuMs()! - started;
    }
  };
}
timeStage('frames', 'writeRowFramesDue');
timeStage('keyframes', 'writeKeyframe');

const streamedPods = 1_000;

interface Options {
  list: number;
  events: number;
  /** Changes per second of recorded time in the stream (what sets how often row frames are due). */
  rate: number;
  profile: string | undefined;
  frames: boolean;
  /** The row frames' intervalMs (undefined: RowFrameWriter's default). */
  frameInterval: number | undefined;
  /** A batch goes once this much is queued (default: the Recorder's batchBytes). */
  batchBytes: number;
  /**
   * Or once this much recorded time passed since the last batch (default: the Recorder's
   * defaultFlushIntervalMs; 0: by size alone, as this bench batched before session 25).
   */
  flushMs: number;
  /** The same for the list, a whole cache recorded (default: the Recorder's wholeCacheBatchBytes). */
  listBatchBytes: number;
  /** 'hot': MODIFIED over the first 1,000 pods; 'broad': the cluster's own churn over every kind. */
  churn: 'hot' | 'broad';
  /**
   * The order the hot mode's list is recorded in: 'key', as a whole-cache record takes the cache
   * (KeyOrderedSnapshot), or 'shard', the informer's cache's own order, as it was recorded before.
   */
  listOrder: 'key' | 'shard';
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = {
    list: 20_000,
    events: 100_000,
    rate: 20_000,
    profile: undefined,
    frames: true,
    frameInterval: undefined,
    batchBytes,
    flushMs: defaultFlushIntervalMs,
    listBatchBytes: wholeCacheBatchBytes,
    churn: 'hot',
    listOrder: 'key',
  };
  for (let index = 0; index < argv.length; index++) {
    const value = argv[++index];
    if (argv[index - 1] === '--list') options.list = Number(value);
    else if (argv[index - 1] === '--events') options.events = Number(value);
    else if (argv[index - 1] === '--rate') options.rate = Number(value);
    else if (argv[index - 1] === '--frame-interval') options.frameInterval = Number(value);
    else if (argv[index - 1] === '--profile') options.profile = value;
    else if (argv[index - 1] === '--batch-bytes') options.batchBytes = Number(value);
    else if (argv[index - 1] === '--flush-ms') options.flushMs = Number(value);
    else if (argv[index - 1] === '--list-batch-bytes') options.listBatchBytes = Number(value);
    else if (argv[index - 1] === '--frames' && (value === 'on' || value === 'off'))
      options.frames = value === 'on';
    else if (argv[index - 1] === '--churn' && (value === 'hot' || value === 'broad')) options.churn = value;
    else if (argv[index - 1] === '--list-order' && (value === 'key' || value === 'shard'))
      options.listOrder = value;
    else
      throw new Error(
        `unknown argument ${argv[index - 1]} (--list N --events M --rate R --frames on|off --frame-interval MS --batch-bytes B --flush-ms MS --list-batch-bytes B --profile DIR --churn hot|broad --list-order key|shard)`,
      );
  }
  return options;
}

/** A batch as the Recorder sends it: its entries and their ends, and the time it is sent (its last entry's). */
interface Batch extends TakenBatch {
  readonly now: number;
}

/**
 * Entries' JSON texts (and times) queued into batches as the Recorder sends them: once about `bytes`
 * are queued, or once `flushMs` of recorded time passed since the last batch (its flush timer).
 */
function batchesOf(
  texts: Iterable<readonly [text: string, time: number]>,
  bytes: number,
  flushMs: number,
): Batch[] {
  const queue = new CaptureQueue(Number.MAX_SAFE_INTEGER);
  const batches: Batch[] = [];
  const take = (now: number) => {
    const taken = queue.take(batches.length + 1);
    if (taken === undefined) return;
    queue.written(batches.length + 1);
    batches.push({ ...taken, now });
  };
  let now = 0;
  let sentAt: number | undefined;
  for (const [text, time] of texts) {
    if (text.startsWith('[')) queue.appendChange(text);
    else queue.appendMark(text);
    now = time;
    sentAt ??= time;
    if (queue.pendingBytes >= bytes || (flushMs > 0 && time - sentAt >= flushMs)) {
      take(now);
      sentAt = time;
    }
  }
  take(now);
  return batches;
}

function mark(entry: MarkEntry): string {
  return JSON.stringify(entry);
}

async function profiled<T>(directory: string | undefined, name: string, work: () => T): Promise<T> {
  if (directory === undefined) return work();
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  const result = work();
  const { profile } = (await post('Profiler.stop')) as { profile: unknown };
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, `${name}.cpuprofile`), JSON.stringify(profile));
  session.disconnect();
  return result;
}

/** The file's size (WAL included) as the last reply told it. */
function bytesOf(replies: readonly RecordingReply[]): number {
  for (let index = replies.length - 1; index >= 0; index--) {
    const reply = replies[index];
    if (reply.type === 'written' || reply.type === 'closed') return reply.bytes;
  }
  return 0;
}

/**
 * CPU ms to read the pods' state at the list's moment (stateAt: every listed version decoded, its
 * block inflated), rounded; what a moment's whole objects cost a reader of this list.
 */
function listStateMs(file: string, time: number): number {
  const reader = openRecording(file);
  try {
    const started = threadCpuMs()!;
    stateAt(reader, { gvr: 'pods.v1', time });
    return Math.round(threadCpuMs()! - started);
  } finally {
    reader.close();
  }
}

/**
 * The payload bytes of the recording's changes recorded from `from` to `to`, with the blocks they
 * point into (format 7: a list's versions, see change-blocks.ts), each counted with its last change.
 */
function payloadBytes(file: string, from: number, to: number): number {
  const database = new Database(file, { readonly: true });
  try {
    const changes = database
      .prepare('SELECT coalesce(sum(length(payload)), 0) FROM changes WHERE time BETWEEN ? AND ?')
      .pluck()
      .get(from, to) as number;
    const hasBlocks = database
      .prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'change_blocks'")
      .pluck()
      .get() as number;
    if (hasBlocks === 0) return changes;
    const blocks = database
      .prepare(
        'SELECT coalesce(sum(length(b.payload)), 0) FROM change_blocks b JOIN changes c ON c.id = b.last_change WHERE c.time BETWEEN ? AND ?',
      )
      .pluck()
      .get(from, to) as number;
    return changes + blocks;
  } finally {
    database.close();
  }
}

/**
 * How the versions recorded from `from` to `to` were stored, by encoding (see VersionEncoding: "full",
 * "delta" a text delta, "deflated" a text deflated against its base, "same" a repeat), with their bytes.
 */
function encodingsOf(
  file: string,
  from: number,
  to: number,
): Record<string, { count: number; bytes: number }> {
  const database = new Database(file, { readonly: true });
  try {
    const rows = database
      .prepare(
        'SELECT encoding, payload IS NULL AS same, count(*) AS count, coalesce(sum(length(payload)), 0) AS bytes FROM changes WHERE time BETWEEN ? AND ? GROUP BY 1, 2',
      )
      .all(from, to) as { encoding: number; same: number; count: number; bytes: number }[];
    const kinds: Record<string, { count: number; bytes: number }> = {};
    for (const row of rows) {
      const kind = row.same
        ? 'same'
        : row.encoding === 0
          ? 'full'
          : row.encoding === 4
            ? 'block'
            : (row.encoding & 16) !== 0
              ? 'delta'
              : row.encoding === 1
                ? 'deflated'
                : `encoding ${row.encoding}`;
      const counted = (kinds[kind] ??= { count: 0, bytes: 0 });
      counted.count += row.count;
      counted.bytes += row.bytes;
    }
    return kinds;
  } finally {
    database.close();
  }
}

/** The bytes of the recording's row frames. */
function frameBytes(file: string): number {
  const database = new Database(file, { readonly: true });
  try {
    return (
      (database.prepare('SELECT coalesce(sum(length(rows)), 0) FROM row_frames').pluck().get() as number) ?? 0
    );
  } finally {
    database.close();
  }
}

/** Where the recorded entries come from: the list first, then the stream's events in rounds. */
interface EntrySource {
  /** Objects the list held (known once it is generated). */
  readonly listed: number;
  /** Changes the events generated so far made (hot: one each; broad: every store event). */
  readonly changes: number;
  list(time: number): Iterable<TimedText>;
  /** Events [first, last), the first at `start`; returns with the last one's time in `clock`. */
  events(first: number, last: number, start: number, clock: { time: number }): Iterable<TimedText>;
  close(): Promise<void>;
  /** Changes by what they are, when the source tells. */
  readonly changesBy?: ReadonlyMap<string, number>;
}

/** The hot mode: `--events` MODIFIED over the first 1,000 of `--list` pods, in turn. */
/**
 * `pods` (the API server's list) as the app's whole-cache record takes them: the informer's cache
 * lists them shard by shard (ShardedMap), and the record takes that listing in key order.
 */
function cacheOrder(pods: KubeObject[], order: 'key' | 'shard'): KubeObject[] {
  const listing = ShardedMap.of(pods.map((pod) => [keyOf(pod), pod] as const)).valuesArray();
  if (order === 'shard') return listing;
  const snapshot = new KeyOrderedSnapshot(listing);
  while (!snapshot.ready) snapshot.prepare();
  const ordered: KubeObject[] = [];
  for (let pod = snapshot.next(); pod; pod = snapshot.next()) ordered.push(pod);
  return ordered;
}

async function hotSource(options: Options): Promise<EntrySource> {
  // In a process of its own: the embedded cluster's store outlives its close() by some 330 MB of heap
  // at 50,000 pods, which every collection of this thread (the worker's, in production) then marked.
  const directory = mkdtempSync(join(tmpdir(), 'kubetide-recording-profile-cluster-'));
  const cluster = await startClusterProcess({
    pods: options.list,
    kubeconfigPath: join(directory, 'kubeconfig'),
    log: () => {},
  });
  let pods: KubeObject[];
  try {
    const list = JSON.parse(
      (await getBody(`${cluster.url}/api/v1/pods?limit=${options.list}`)).toString('utf8'),
    ) as KubeList;
    const transform = kubetideTransform();
    pods = cacheOrder(
      list.items.map((pod) => transform(pod) as KubeObject),
      options.listOrder,
    );
  } finally {
    await cluster.close();
    rmSync(directory, { recursive: true, force: true });
  }
  const replaced = encodeDeltaType('Replaced', false);
  const updated = encodeDeltaType('Updated', false);
  const streamed = pods.slice(0, streamedPods);
  // A loop, not Math.max(...): spreading 150,000 arguments overflows the stack.
  const resourceVersion = pods.reduce(
    (highest, pod) => Math.max(highest, Number(pod.metadata.resourceVersion) || 0),
    0,
  );
  const transform = kubetideTransform();
  let changes = 0;
  return {
    listed: pods.length,
    get changes() {
      return changes;
    },
    *list(time) {
      yield [mark({ mark: 'stream', stream: 1, gvr: 'pods.v1', scope: '', time }), time];
      yield [mark({ mark: 'list-start', stream: 1 }), time];
      for (const pod of pods)
        yield [`[${time},1,${replaced},${JSON.stringify(keyOf(pod))},${JSON.stringify(pod)}]`, time];
      // The listed trees are the bench's, not the worker's: held while the list is written, every
      // collection in this thread marked them (at 150,000 pods, hundreds of MB the worker never holds).
      pods = [];
      yield [
        mark({ mark: 'list-applied', stream: 1, time, reason: 'initial-list', detail: 'profile' }),
        time,
      ];
    },
    *events(first, last, start, clock) {
      for (let index = first; index < last; index++) {
        const slot = index % streamed.length;
        streamed[slot] = nextVersion(streamed[slot], index, resourceVersion + index + 1);
        const object = transform(JSON.parse(JSON.stringify(streamed[slot]))) as KubeObject;
        clock.time = start + Math.floor((index * 1000) / options.rate);
        changes++;
        yield [
          `[${clock.time},1,${updated},${JSON.stringify(keyOf(object))},${JSON.stringify(object)}]`,
          clock.time,
        ];
      }
    },
    close: async () => {},
  };
}

/** The broad mode: the cluster's own churn over every kind (see BroadChurn). */
async function broadSource(options: Options): Promise<EntrySource> {
  const churn = await BroadChurn.start(options.list);
  return {
    get listed() {
      return churn.listed;
    },
    get changes() {
      return churn.changes;
    },
    list: (time) => churn.list(time),
    *events(first, last, start, clock) {
      for (const entry of churn.churn(
        last - first,
        options.rate,
        start + Math.floor((first * 1000) / options.rate),
      )) {
        clock.time = entry[1];
        yield entry;
      }
    },
    close: () => churn.close(),
    changesBy: churn.changesBy,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const source = options.churn === 'broad' ? await broadSource(options) : await hotSource(options);
  const directory = mkdtempSync(join(tmpdir(), 'kubetide-recording-profile-'));
  const file = join(directory, 'recording.sqlite');
  const listTime = Date.UTC(2026, 11, 1);
  const clock = { time: listTime };
  const replies: RecordingReply[] = [];
  const server = new RecordingServer((reply) => replies.push(reply));
  let sequence = 0;
  const write = (batches: readonly Batch[]) => {
    for (const { entries, entryEnds, now } of batches)
      server.handle({ type: 'batch', sequence: ++sequence, entries, entryEnds, now });
  };
  try {
    server.handle({
      type: 'open',
      settings: {
        file,
        context: 'profile',
        rowFrames: options.frames && { intervalMs: options.frameInterval },
      },
      now: listTime,
    });
    const listBatches = batchesOf(source.list(listTime), options.listBatchBytes, options.flushMs);
    const listStart = threadCpuMs()!;
    await profiled(options.profile, 'initial-list', () => write(listBatches));
    const listMs = threadCpuMs()! - listStart;
    const listStages = { ...stageCpuMs };
    listBatches.length = 0;

    const eventsStart = listTime + 1;
    let eventsMs = 0;
    // In rounds of at most 50,000 events, so the batches of a long run never sit in memory together.
    for (let first = 0; first < options.events; first += 50_000) {
      const last = Math.min(options.events, first + 50_000);
      const batches = batchesOf(
        source.events(first, last, eventsStart, clock),
        options.batchBytes,
        options.flushMs,
      );
      const started = threadCpuMs()!;
      await profiled(first === 0 ? options.profile : undefined, 'events', () => write(batches));
      eventsMs += threadCpuMs()! - started;
    }
    server.handle({ type: 'close', now: clock.time });
    const errors = replies.filter((reply) => reply.type === 'error' || reply.type === 'open-failed');
    if (errors.length > 0) throw new Error(`the recording failed: ${JSON.stringify(errors[0])}`);
    const bytes = bytesOf(replies);
    const listed = source.listed;
    const changes = source.changes;
    const perChange = (ms: number) => Math.round((ms * 10_000) / changes) / 10;
    const report = {
      churn: options.churn,
      list_objects: listed,
      list_cpu_ms: Math.round(listMs),
      list_us_per_object: Math.round((listMs * 1000) / listed),
      list_frames_us_per_object: Math.round((listStages.frames * 1000) / listed),
      list_payload_bytes_per_object: Math.round(payloadBytes(file, listTime, listTime) / listed),
      list_state_ms: listStateMs(file, listTime),
      list_encodings: encodingsOf(file, listTime, listTime),
      events: options.events,
      changes,
      events_cpu_ms: Math.round(eventsMs),
      events_us_per_change: perChange(eventsMs),
      events_per_cpu_s: Math.round(changes / (eventsMs / 1000)),
      events_frames_us_per_change: perChange(stageCpuMs.frames - listStages.frames),
      events_keyframes_us_per_change: perChange(stageCpuMs.keyframes - listStages.keyframes),
      events_payload_bytes_per_change:
        Math.round((payloadBytes(file, eventsStart, Number.MAX_SAFE_INTEGER) / changes) * 10) / 10,
      events_encodings: encodingsOf(file, eventsStart, Number.MAX_SAFE_INTEGER),
      row_frames: options.frames,
      frame_interval_ms: options.frameInterval ?? null,
      frame_bytes: frameBytes(file),
      file_bytes_per_change: Math.round((bytes / (listed + changes)) * 10) / 10,
      ...(source.changesBy
        ? { changes_by: Object.fromEntries([...source.changesBy].sort((left, right) => right[1] - left[1])) }
        : {}),
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
    await source.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
