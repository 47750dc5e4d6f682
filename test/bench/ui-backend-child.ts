// The ui benches' Kubetide backend in a process of its own (ui-backend-process.ts starts it). In the
// bench's own process the backend shared its main thread with playwright, which receives every
// WebSocket frame the page gets back through Chrome's devtools protocol and parses it again: 7-11% of
// that thread at startup and under churn, billed to the backend's CPU and stalls. The Electron app and
// `npm start` run no driver beside the backend, so the figures are taken where it runs alone.
//
// Arguments: one JSON BackendChildOptions. Messages (process.send): in, BackendRequest; out,
// BackendReply. The measured window's figures are this process's: its CPU (main thread and workers),
// its main thread's CPU, and its event loop's longest stall in wall and in CPU time.
//
// KUBETIDE_BENCH_BACKEND_HEAP=FILE also writes a sampling heap profile of the measured window to FILE,
// leaving out the objects young-generation collections freed: what is left is what was promoted or
// allocated old (freed later by a mark-compact, or still alive), the old generation's intake that
// its collections must mark and sweep. Read it with heap-sample-summary.ts.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { threadCpuMs } from '../../main/history/thread-cpu-time';
import { startBrowserMode } from '../../main/app/serve';
import { startLoopStallMonitor } from './harness';
import { CpuStallMonitor, describeWallStall } from './cpu-stall-monitor';
import type { BackendChildOptions, BackendFigures, BackendReply, BackendRequest } from './ui-backend-process';
import { describeThreadCpu, threadCpu, threadCpuSpent } from './thread-cpu';
import { podsProgress } from './startup-timeline';

const options = JSON.parse(process.argv[2]!) as BackendChildOptions;
const send = (reply: BackendReply) => process.send!(reply);

// KUBETIDE_BENCH_BACKEND_LOG=1: the backend's log (watch failures among it) and every event-loop
// delay over a second, on stderr with the seconds since this process started, so a watch the cluster
// cut can be set beside what the backend was doing then.
const logging = process.env.KUBETIDE_BENCH_BACKEND_LOG === '1';
const since = () => (performance.now() / 1000).toFixed(1);
if (logging) watchLongDelays();
const mode = await startBrowserMode({
  port: 0,
  embedded: false,
  pods: options.pods,
  kubeconfig: options.kubeconfig,
  dataDirectory: options.dataDirectory,
  log: logging ? (message) => console.error(`backend ${since()} s: ${message}`) : () => undefined,
});

/** Logs each event-loop delay over a second (a 250 ms timer that fired late). */
function watchLongDelays(): void {
  let expected = performance.now() + 250;
  setInterval(() => {
    const late = performance.now() - expected;
    if (late > 1_000) console.error(`backend ${since()} s: event loop delayed ${Math.round(late)} ms`);
    expected = performance.now() + 250;
  }, 250).unref();
}

interface Measuring {
  stop(): BackendFigures;
  /** Settles once the window's heap profile, if asked, is written (after stop). */
  heapProfileWritten(): Promise<void>;
}

/** The window's heap profile (see KUBETIDE_BENCH_BACKEND_HEAP), written when stopped; none unasked. */
async function startHeapProfile(file: string | undefined): Promise<() => Promise<void>> {
  if (!file) return async () => undefined;
  const session = new Session();
  session.connect();
  // Node 20's types predate these two options; V8 11 reads them.
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 65_536,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: false,
  } as { samplingInterval: number });
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

function startMeasuring(): Measuring {
  const heapProfile = startHeapProfile(process.env.KUBETIDE_BENCH_BACKEND_HEAP);
  const stalls = startLoopStallMonitor();
  const cpuStalls = new CpuStallMonitor();
  cpuStalls.start();
  const cpuStart = process.cpuUsage();
  const threadStart = threadCpuMs();
  const threadsStart = threadCpu();
  const wallStart = performance.now();
  return {
    stop() {
      const cpu = process.cpuUsage(cpuStart);
      const threadEnd = threadCpuMs();
      const loopStallCpuMs = cpuStalls.stop();
      const loopStallCpuSpan = cpuStalls.longestSpan();
      return {
        wallMs: performance.now() - wallStart,
        processCpuMs: (cpu.user + cpu.system) / 1000,
        ...(threadStart === undefined || threadEnd === undefined
          ? {}
          : { mainThreadCpuMs: threadEnd - threadStart }),
        loopStallMs: stalls.stop(),
        ...(loopStallCpuMs === undefined ? {} : { loopStallCpuMs }),
        ...(loopStallCpuSpan === undefined ? {} : { loopStallCpuSpan }),
        collections: cpuStalls.collectionTotals(),
        threads: describeThreadCpu(threadCpuSpent(threadsStart, threadCpu())),
        wallStalls: cpuStalls.wallStalls().longest.map(describeWallStall),
      };
    },
    heapProfileWritten: () => heapProfile.then((stopHeapProfile) => stopHeapProfile()),
  };
}

let measuring: Measuring | undefined;
process.on('message', (request: BackendRequest) => {
  switch (request.type) {
    case 'launch-url':
      send({ type: 'launch-url', id: request.id, url: mode.launchUrl() });
      return;
    case 'progress':
      send({ type: 'progress', id: request.id, progress: podsProgress(mode.backend.host.session) });
      return;
    case 'measure-start':
      measuring = startMeasuring();
      send({ type: 'measure-started', id: request.id });
      return;
    case 'measure-stop': {
      const stopped = measuring;
      measuring = undefined;
      if (!stopped) return send({ type: 'error', id: request.id, message: 'no measurement was started' });
      const figures = stopped.stop();
      void stopped.heapProfileWritten().then(() => send({ type: 'figures', id: request.id, figures }));
      return;
    }
    case 'close':
      void mode.close().finally(() => process.exit(0));
  }
});
// The parent going away (a crashed bench) takes the backend with it.
process.on('disconnect', () => void mode.close().finally(() => process.exit(0)));
send({ type: 'ready' });
