// Where a travel's wall time goes (issues 12 and 15), from the page's side: the ui bench's travels
// (10 s back, then to the recording's start) with a Chromium trace of the page and every WebSocket
// frame the page sent and received, both on the browser's monotonic clock:
//
//   npx tsx test/bench/travel-breakdown.ts [--pods 50000] [--churn 2000] [--seconds 30] [--top 12]
//
// Each travel prints: the click, the page's history request sent, the first frame back (main and its
// query worker answering), the first and last row batch received (the rows crossing), the page
// thread's busy time until the table is complete and painted (the probe's figure), and that busy time
// by trace event (self time, wall and CPU): script (the store, React), style, layout, paint. The trace
// is written to test-artifacts/ui-bench/travel-breakdown-N.trace.json for trace-summary.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { round } from './harness';
import { rendererMain, selfTimes } from './trace-events';
import type { SelfTimes, TraceEvent } from './trace-events';
import { UiBenchSession } from './ui-session';
import { goLive, recordingSpan, travelTo } from './ui-scenario';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '50000' },
    churn: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '30' },
    top: { type: 'string', default: '12' },
    // Runs the backend under `node --cpu-prof` into this folder (see ui-travel.ts).
    'backend-profile': { type: 'string' },
  },
});
const pods = Number(values.pods);
const folder = fileURLToPath(new URL('../../test-artifacts/ui-bench', import.meta.url));
const started = performance.now();
const log = (message: string) =>
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s ${message}`);

/** A WebSocket frame on the browser's clock (us), with the start of its text. */
interface Frame {
  readonly at: number;
  readonly sent: boolean;
  readonly bytes: number;
  readonly head: string;
}

const session = await UiBenchSession.start(pods, log);
const { cluster } = session;
try {
  const backendProfile = values['backend-profile'];
  const backend = await session.startBackendProcess(
    backendProfile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', backendProfile],
  );
  const { page, cdp } = await session.openSyncedPage(backend, log);
  await cluster.setChurn(Number(values.churn));
  log(`churning at ${values.churn}/s for ${values.seconds} s...`);
  await page.waitForTimeout(Number(values.seconds) * 1000);
  const span = await recordingSpan(page);

  const frames: Frame[] = [];
  const frame = (sent: boolean) => (event: { timestamp: number; response: { payloadData: string } }) =>
    frames.push({
      at: event.timestamp * 1e6,
      sent,
      bytes: event.response.payloadData.length,
      head: event.response.payloadData.slice(0, 300),
    });
  cdp.on('Network.webSocketFrameReceived', frame(false));
  cdp.on('Network.webSocketFrameSent', frame(true));
  await cdp.send('Network.enable');
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  const traced = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'toplevel',
        'v8.execute',
        'blink.user_timing',
      ],
    },
  });
  // The backend's profile clock (node --cpu-prof's timestamps are the monotonic clock in us).
  const clock = () => Math.round(Number(process.hrtime.bigint() / 1000n));
  log(`travels start on the profile clock at ${clock()} us`);
  const recent = await travelTo(page, span.to - 10_000);
  const recentShown = await shown();
  await goLive(page);
  const start = await travelTo(page, span.from + 1_000);
  const startShown = await shown();
  await cdp.send('Tracing.end');
  await traced;
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `travel-breakdown-${pods}.trace.json`), JSON.stringify(events));

  const clicks = events
    .filter((event) => event.name === 'EventDispatch' && event.args?.data?.type === 'pointerup')
    .map((event) => event.ts)
    .sort((left, right) => left - right);
  const travels = [
    { label: 'travel to 10 s ago', ms: recent, shown: recentShown },
    { label: "travel to the recording's start", ms: start, shown: startShown },
  ];
  travels.forEach((travel, index) => {
    const click = clicks[index];
    if (click === undefined) return log(`${travel.label}: no pointerup in the trace`);
    const end = click + travel.ms * 1000;
    log(`${travel.label}: ${round(travel.ms)} ms (${travel.shown})`);
    breakDown(click, end, frames, events, Number(values.top));
  });

  async function shown(): Promise<string> {
    // No function is named inside the page's code: tsx would wrap it in a helper the page lacks.
    return page.evaluate(
      () =>
        `${document.querySelector('[data-testid="row-count"]')?.textContent ?? ''} rows; ${document.querySelector('[data-testid="travel-banner"]')?.textContent ?? ''}; ${document.querySelector('[data-testid="history-coverage"]')?.textContent ?? ''}`,
    );
  }
} finally {
  await session.close();
}

/** The travel from `click` to `end` (us): its frames and the page thread's busy time by event. */
function breakDown(click: number, end: number, frames: readonly Frame[], events: TraceEvent[], top: number) {
  const at = (us: number) => `${round((us - click) / 1000)} ms`.padStart(10);
  const within = frames.filter((each) => each.at >= click && each.at <= end);
  for (const each of within.filter((frame) => frame.sent))
    console.log(`  ${at(each.at)} sent ${each.bytes} B ${each.head.slice(0, 100)}`);
  const received = within.filter((frame) => !frame.sent);
  const batches = received.filter((frame) =>
    frame.head.startsWith('{"type":"batch","subscriptionId":"replay'),
  );
  const cursors = received.filter((frame) => frame.head.includes('"historyCursor"'));
  if (received[0]) console.log(`  ${at(received[0].at)} first frame back: ${received[0].head.slice(0, 100)}`);
  if (batches[0]) {
    const bytes = batches.reduce((sum, frame) => sum + frame.bytes, 0);
    console.log(
      `  ${at(batches[0].at)} first batch; ${at(batches.at(-1)!.at)} last of ${batches.length} (${round(bytes / 1e6)} MB)`,
    );
    // Each batch as it came (subscription, seq, kB): the pace the page was sent them at.
    const each = batches.map((frame) => {
      const [, subscription, seq] = /"subscriptionId":"([^"]+)","seq":(\d+)/.exec(frame.head) ?? [];
      return `${round((frame.at - click) / 1000)} ${subscription}#${seq} ${round(frame.bytes / 1e3)} kB`;
    });
    console.log(`  batches (ms from the click): ${each.join(', ')}`);
  }
  const lastBatch = batches.at(-1);
  if (lastBatch) {
    // What the user waits for once the moment's last byte is in: the page alone.
    const tail = selfTimesBetween(events, lastBatch.at, end);
    console.log(
      `  after the last batch: ${round((end - lastBatch.at) / 1000)} ms to painted, page thread busy ${round(tail.busy / 1000)} ms (CPU ${round(tail.busyCpu / 1000)} ms)`,
    );
  }
  // The page's long tasks (50 ms or more): a frame the user cannot scroll or type in.
  const thread = rendererMain(events);
  let taskEnd = 0;
  const tasks = events
    .filter(
      (event) =>
        (event.name === 'RunTask' || event.name === 'ThreadControllerImpl::RunTask') &&
        event.ph === 'X' &&
        event.pid === thread?.pid &&
        event.tid === thread.tid &&
        event.ts >= click &&
        event.ts <= end &&
        (event.dur ?? 0) >= 50_000,
    )
    .sort((left, right) => left.ts - right.ts || right.dur! - left.dur!)
    // A wrapper inside another (RunTask inside ThreadControllerImpl::RunTask) is the same task.
    .filter((event) => {
      if (event.ts < taskEnd) return false;
      taskEnd = event.ts + event.dur!;
      return true;
    });
  for (const task of tasks)
    console.log(
      `  ${at(task.ts)} long task ${round(task.dur! / 1000)} ms (CPU ${round((task.tdur ?? task.dur!) / 1000)} ms)`,
    );
  for (const each of cursors.slice(0, 3).concat(cursors.slice(-2)))
    console.log(`  ${at(each.at)} cursor ${each.head.slice(0, 160)}`);
  const { self, selfCpu, busy, busyCpu } = selfTimesBetween(events, click, end);
  console.log(
    `  ${at(end)} painted; page thread busy ${round(busy / 1000)} ms (CPU ${round(busyCpu / 1000)} ms)`,
  );
  for (const [name, us] of [...self].sort((left, right) => right[1] - left[1]).slice(0, top))
    console.log(
      `    ${round(us / 1000)
        .toString()
        .padStart(7)} ms ${round((selfCpu.get(name) ?? 0) / 1000)
        .toString()
        .padStart(7)} ms CPU  ${name}`,
    );
}

/** Self time by event name on the renderer's main thread, for events that start in [from, to]. */
function selfTimesBetween(events: readonly TraceEvent[], from: number, to: number): SelfTimes {
  const thread = rendererMain(events);
  return selfTimes(
    events
      .filter(
        (event) =>
          event.ph === 'X' &&
          event.dur !== undefined &&
          event.pid === thread?.pid &&
          event.tid === thread.tid &&
          event.ts >= from &&
          event.ts <= to,
      )
      .map((event) => ({
        name: event.name,
        start: event.ts,
        end: event.ts + event.dur!,
        cpu: event.tdur ?? event.dur!,
      })),
  );
}
