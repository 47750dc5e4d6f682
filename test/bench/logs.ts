// The logs benchmark (issue 14): what a log view's store absorbs while following, and what a million
// held lines cost. Runs in a child process (component-child.ts), as the view's store lives in a
// renderer. Lines are the simulator's own (main/sim/container-log.ts: access logs, server logs, SGR
// coloured application logs), 24 sources interleaved, and arrive as main sends them: logLines messages
// as JSON text, at most one per frame, each parsed (as the WebSocket link does), merged into the
// LogSession's buffer, run past an open search (LogMatches, incremental) and the visible window's
// rows rendered to segments (parseAnsi + highlight ranges), as the view does per frame.
//
// absorb: the whole stream pushed as fast as the store takes it, in frames of 2,000 lines; the rate
// is lines over the time the frames took (generating the lines is not counted), and the slowest
// frame is the longest one step took after the first five (JIT warm-up, reported apart), garbage
// collection included.
// memory: heap retained by a LogSession holding `--log-lines` lines (default 1,000,000), after GC.
import { ContainerLog } from '../../main/sim/container-log';
import type { LogLine, LogLinesMessage } from '../../shared/protocol/log-messages';
import { LogMatches, compileQuery, matchRanges } from '../../renderer/store/log-search';
import { LogSession } from '../../renderer/store/log-session';
import { parseAnsi, stripAnsi } from '../../renderer/views/logs/ansi';
import type { BenchOptions, BenchResult } from './harness';
import { atLeast, atMost, collectGarbage, percentile, round } from './harness';

const sources = 24;
const linesPerFrame = 2_000;
const visibleRows = 60;
const warmupFrames = 5;
const images = [
  'nginx:1.27',
  'example/api:1',
  'redis:7.4',
  'postgres:16',
  'envoyproxy/envoy:v1.31',
  'grafana/grafana:11',
];

/**
 * `total` lines from `sources` runs, merged by time, a frame of JSON text at a time: made on demand,
 * so the benchmark holds no more than a renderer would (one message), and untimed.
 */
function* frames(total: number): Generator<string> {
  const start = Date.UTC(2026, 0, 1);
  const logs = Array.from(
    { length: sources },
    (_, index) =>
      new ContainerLog({
        id: `containerd://bench${index}`,
        image: images[index % images.length],
        startedAt: start,
      }),
  );
  const next = new Array<number>(sources).fill(0);
  let batch: LogLine[] = [];
  for (let count = 0; count < total; count++) {
    let source = 0;
    for (let index = 1; index < sources; index++)
      if (logs[index].timeOf(next[index]) < logs[source].timeOf(next[source])) source = index;
    const index = next[source]++;
    const time = logs[source].timeOf(index);
    batch.push({ source, time, timestamp: new Date(time).toISOString(), text: logs[source].textOf(index) });
    if (batch.length === linesPerFrame || count === total - 1) {
      yield JSON.stringify({ type: 'logLines', streamId: 'bench', lines: batch } satisfies LogLinesMessage);
      batch = [];
    }
  }
}

function session(capacity: number): LogSession {
  const created = new LogSession(capacity);
  created.receive({
    type: 'logSources',
    streamId: 'bench',
    added: Array.from({ length: sources }, (_, id) => ({
      id,
      namespace: 'bench',
      pod: `pod-${id}`,
      container: 'app',
    })),
    removed: [],
  });
  return created;
}

/** The work of one frame of the view: the visible rows' segments and highlights. */
function renderWindow(target: LogSession, matches: LogMatches): number {
  const { buffer } = target;
  let segments = 0;
  for (let index = Math.max(0, buffer.length - visibleRows); index < buffer.length; index++) {
    const text = buffer.text(index);
    segments += parseAnsi(text).length + matchRanges(stripAnsi(text), matches.pattern).length;
  }
  return segments;
}

export async function runLogs(options: BenchOptions): Promise<BenchResult> {
  const total = options.logLines;
  const compiled = compileQuery({ text: 'ERROR|status=5\\d\\d| 50[03] ', regex: true });
  if (!compiled.ok) throw new Error(compiled.error);

  const following = session(total);
  const matches = new LogMatches(following.buffer, compiled.pattern, stripAnsi);
  const frameTimes: number[] = [];
  const frameCpuTimes: number[] = [];
  for (const text of frames(total)) {
    const frameStart = performance.now();
    const cpuStart = process.cpuUsage();
    following.receive(JSON.parse(text) as LogLinesMessage);
    matches.update();
    renderWindow(following, matches);
    frameTimes.push(performance.now() - frameStart);
    const cpu = process.cpuUsage(cpuStart);
    frameCpuTimes.push((cpu.user + cpu.system) / 1000);
    // Each frame is a task of its own, as animation frames are.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const absorbSeconds = frameTimes.reduce((sum, time) => sum + time, 0) / 1000;
  const linesPerSecond = total / absorbSeconds;
  // The first frames compile the parser, the search and the view's code paths: reported apart.
  const slowestFrame = Math.max(...frameTimes.slice(warmupFrames));
  const slowestWarmup = Math.max(...frameTimes.slice(0, warmupFrames));
  const matched = matches.count;

  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const held = session(total);
  for (const text of frames(total)) held.receive(JSON.parse(text) as LogLinesMessage);
  collectGarbage();
  const heldBytes = process.memoryUsage().heapUsed - before;
  const megabytesPerMillion = ((heldBytes / held.buffer.length) * 1_000_000) / (1024 * 1024);

  return {
    bench: 'logs',
    fields: {
      lines: total,
      lines_per_s: round(linesPerSecond),
      frame_p50_ms: round(percentile(frameTimes, 50)),
      max_frame_ms: round(slowestFrame),
      warmup_max_frame_ms: round(slowestWarmup),
      max_frame_cpu_ms: round(Math.max(...frameCpuTimes.slice(warmupFrames))),
      matched_lines: matched,
      mb_per_million_lines: round(megabytesPerMillion),
    },
    goals: [
      atLeast('a log view absorbs >= 50,000 lines/s while following', linesPerSecond, 50_000, ' lines/s'),
      atMost('no frame over 50 ms (2,000 lines a frame)', slowestFrame, 50, ' ms'),
      atMost('memory per 1,000,000 lines held <= 200 MB', megabytesPerMillion, 200, ' MB'),
    ],
    notes: [
      'max_frame_cpu_ms: the most CPU any frame used (all threads, GC included); a max_frame_ms far above it is a frame waiting for a core on a busy machine',
      `${sources} sources merged by time, a regex search open, the ${visibleRows} visible rows rendered each frame`,
      ...(held.buffer.length < 1_000_000 ? [`memory extrapolated from ${held.buffer.length} lines`] : []),
    ],
  };
}
