// The ui benches' Kubetide backend in a process of its own (ui-backend-process.ts starts it). In the
// bench's own process the backend shared its main thread with playwright, which receives every
// WebSocket frame the page gets back through Chrome's devtools protocol and parses it again: 7-11% of
// that thread at startup and under churn, billed to the backend's CPU and stalls. The Electron app and
// `npm start` run no driver beside the backend, so the figures are taken where it runs alone.
//
// Arguments: one JSON BackendChildOptions. Messages (process.send): in, BackendRequest; out,
// BackendReply. The measured window's figures are this process's: its CPU (main thread and workers),
// its main thread's CPU, and its event loop's longest stall in wall and in CPU time.
import { threadCpuMs } from '../../main/history/thread-cpu-time';
import { startBrowserMode } from '../../main/app/serve';
import { startLoopStallMonitor } from './harness';
import { CpuStallMonitor, describeWallStall } from './cpu-stall-monitor';
import type { BackendChildOptions, BackendFigures, BackendReply, BackendRequest } from './ui-backend-process';

const options = JSON.parse(process.argv[2]!) as BackendChildOptions;
const send = (reply: BackendReply) => process.send!(reply);

const mode = await startBrowserMode({
  port: 0,
  embedded: false,
  pods: options.pods,
  kubeconfig: options.kubeconfig,
  dataDirectory: options.dataDirectory,
  log: () => undefined,
});

interface Measuring {
  stop(): BackendFigures;
}

function startMeasuring(): Measuring {
  const stalls = startLoopStallMonitor();
  const cpuStalls = new CpuStallMonitor();
  cpuStalls.start();
  const cpuStart = process.cpuUsage();
  const threadStart = threadCpuMs();
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
        wallStalls: cpuStalls.wallStalls().longest.map(describeWallStall),
      };
    },
  };
}

let measuring: Measuring | undefined;
process.on('message', (request: BackendRequest) => {
  switch (request.type) {
    case 'launch-url':
      send({ type: 'launch-url', id: request.id, url: mode.launchUrl() });
      return;
    case 'measure-start':
      measuring = startMeasuring();
      send({ type: 'measure-started', id: request.id });
      return;
    case 'measure-stop': {
      const figures = measuring?.stop();
      measuring = undefined;
      if (figures) send({ type: 'figures', id: request.id, figures });
      else send({ type: 'error', id: request.id, message: 'no measurement was started' });
      return;
    }
    case 'close':
      void mode.close().finally(() => process.exit(0));
  }
});
// The parent going away (a crashed bench) takes the backend with it.
process.on('disconnect', () => void mode.close().finally(() => process.exit(0)));
send({ type: 'ready' });
