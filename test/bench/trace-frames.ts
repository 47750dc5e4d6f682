// The page's frames in a Chromium trace, each split by stage (issue 15, session 23): what a frame
// (ProxyMain::BeginMainFrame on the renderer's main thread) spent of the thread's own time on script,
// style, layout, pre-paint, paint, layerization, hit tests and the commit. A wall time is the load's as
// much as the page's; the thread time is the page's work, so a change to the table shows here first.
// The frames that ran a scroll event are the ones that rendered the rows scrolled into view.
//
//   npx tsx test/bench/trace-frames.ts test-artifacts/ui-bench/scroll-trace-50000.json
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { percentile, round } from './harness';
import { rendererMain } from './trace-events';
import type { TraceEvent } from './trace-events';

/** Stages by the trace event that opens them; work nested in one counts to the innermost stage. */
const stageOf: Readonly<Record<string, string>> = {
  FunctionCall: 'script',
  EventDispatch: 'script',
  'v8.callFunction': 'script',
  FireAnimationFrame: 'script',
  TimerFire: 'script',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'prepaint',
  Paint: 'paint',
  Layerize: 'layerize',
  HitTest: 'hit test',
  Commit: 'commit',
};

export const stages = [
  'script',
  'style',
  'layout',
  'prepaint',
  'paint',
  'layerize',
  'hit test',
  'commit',
  'other',
];

export interface FrameStages {
  /** The frame's thread time (ms). */
  readonly threadMs: number;
  /** Whether the frame dispatched a scroll event (the table rendered the rows scrolled in). */
  readonly scrolled: boolean;
  /** Thread ms by stage (self times, each counted to the innermost stage around it). */
  readonly byStage: Map<string, number>;
}

/** Every frame of the renderer's main thread with its thread time split by stage. */
export function frameStages(events: readonly TraceEvent[]): FrameStages[] {
  const main = rendererMain(events);
  if (!main) return [];
  const complete = events
    .filter(
      (event) =>
        event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.dur !== undefined,
    )
    .sort((left, right) => left.ts - right.ts || right.dur! - left.dur!);
  const frames: FrameStages[] = [];
  // Nesting by time: each event's self thread time (its own less its direct children's) goes to the
  // innermost stage event around it, itself included.
  interface Open {
    readonly event: TraceEvent;
    readonly stage: string;
    childCpu: number;
  }
  const stack: Open[] = [];
  let frame: { threadMs: number; scrolled: boolean; byStage: Map<string, number>; end: number } | undefined;
  const close = (until: number) => {
    while (stack.length > 0 && stack.at(-1)!.event.ts + stack.at(-1)!.event.dur! <= until) {
      const done = stack.pop()!;
      const self = ((done.event.tdur ?? 0) - done.childCpu) / 1000;
      if (frame && done.event.ts < frame.end)
        frame.byStage.set(done.stage, (frame.byStage.get(done.stage) ?? 0) + Math.max(0, self));
    }
  };
  for (const event of complete) {
    close(event.ts);
    if (stack.length > 0) stack.at(-1)!.childCpu += event.tdur ?? 0;
    if (event.name === 'ProxyMain::BeginMainFrame' && !stack.some((open) => open.event.name === event.name)) {
      frame = {
        threadMs: (event.tdur ?? 0) / 1000,
        scrolled: false,
        byStage: new Map(),
        end: event.ts + event.dur!,
      };
      frames.push(frame);
    }
    const inFrame = frame !== undefined && event.ts < frame.end;
    if (inFrame && event.name === 'EventDispatch' && event.args?.data?.type === 'scroll')
      frame!.scrolled = true;
    // Work in the frame outside any stage event (the lifecycle's own bookkeeping) is 'other'.
    const parent = stack.at(-1)?.stage;
    const stage = stageOf[event.name] ?? (parent === undefined || parent === 'outside' ? 'other' : parent);
    stack.push({ event, stage: inFrame ? stage : 'outside', childCpu: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  return frames;
}

/** Percentiles of the frames' thread time, and each stage's mean, over `frames`. */
export function printFrameStages(title: string, frames: readonly FrameStages[]): void {
  if (frames.length === 0) {
    console.log(`${title}: no frames`);
    return;
  }
  const threadMs = frames.map((frame) => frame.threadMs);
  const mean = (stage: string) =>
    frames.reduce((sum, frame) => sum + (frame.byStage.get(stage) ?? 0), 0) / frames.length;
  console.log(
    `${title}: ${frames.length} frames, thread ms p50 / p95 / max ${round(percentile(threadMs, 50))} / ${round(percentile(threadMs, 95))} / ${round(Math.max(...threadMs))}; over 10 ms ${threadMs.filter((ms) => ms > 10).length}`,
  );
  console.log(
    `  mean thread ms a frame by stage: ${stages.map((stage) => `${stage} ${round(mean(stage))}`).join(', ')}`,
  );
}

/** The frames that rendered scrolled-in rows, then every frame drawn (a frame under 1 ms drew nothing new). */
export function printScrollFrames(events: readonly TraceEvent[]): void {
  const frames = frameStages(events);
  printFrameStages(
    'frames that ran a scroll event',
    frames.filter((frame) => frame.scrolled),
  );
  printFrameStages(
    'frames over 1 ms of thread time',
    frames.filter((frame) => frame.threadMs > 1),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printScrollFrames(JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as TraceEvent[]);
}
