// By hand: the main thread's longest tasks while a pods informer lists, start to synced, in this
// thread's CPU time and in wall time, for one worktree's code or two side by side (before/after pairs).
//
//   npx tsx test/bench/sync-stalls.ts [--pods 50000] [--rounds 3] [--roots /work/wt/base5,.] [--profile DIR]
//
// The cluster runs in its own process (ui-cluster.ts: `npm run sim`), as a remote API server would,
// so its encoding bills neither this thread nor its loop. Each round syncs once per root, in a fresh
// child process each (no heap carried over), alternating the roots' order every round. A child imports
// the informer, the feed's compactor and its list preview from its root (--root), as the app's feed
// builds them (feed.ts: trackListing, compactingListerWatcher, the compactor as transform), and
// reports: time to synced, main-thread and process CPU, the longest loop iterations in this thread's
// CPU time (cpu-stall-monitor.ts) with their wall time and collections, and how many passed 50 ms.
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type * as SharedInformerModule from '../../main/cache/shared-informer';
import type * as RealClockModule from '../../main/cache/real-clock';
import type * as CompactingListerWatcherModule from '../../main/bridge/compacting-lister-watcher';
import type * as ObjectCompactorModule from '../../main/bridge/object-compactor';
import type * as ListingProgressModule from '../../main/bridge/listing-progress';
import type * as ListPreviewModule from '../../main/bridge/list-preview';
import type * as RowProjectionModule from '../../main/bridge/row-projection';
import type * as ListerWatcherModule from '../../main/kube/lister-watcher';
import type * as KubeconfigModule from '../../main/kube/kubeconfig';
import type * as RestClientModule from '../../main/kube/rest-client';
import type * as ThreadCpuTimeModule from '../../main/history/thread-cpu-time';
import { CpuStallMonitor } from './cpu-stall-monitor';
import { startClusterProcess } from './ui-cluster';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '50000' },
    rounds: { type: 'string', default: '3' },
    roots: { type: 'string', default: '.' },
    profile: { type: 'string' },
    // Child mode.
    root: { type: 'string' },
    url: { type: 'string' },
    kubeconfig: { type: 'string' },
  },
});

interface StallReport {
  root: string;
  pods: number;
  syncMs: number;
  /** From the start to the LIST decoded, and to the queue replaced. */
  listedMs: number;
  replacedMs: number;
  mainCpuMs: number;
  /** Main-thread CPU to the LIST decoded, from there to the queue replaced, from there to synced. */
  phaseCpuMs: [number, number, number];
  processCpuMs: number;
  longestCpuMs: number;
  /** The longest iterations by CPU: "cpu/wall ms [collections]". */
  longest: string[];
  over50: number;
  /** The longest iterations on the monotonic clock (profile-summary.ts --window START END). */
  longestSpan: string;
  load: string;
}

/** Loop iterations above this much of the thread's CPU are counted (the brief's cut). */
const longTaskMs = 50;

async function child(): Promise<void> {
  const root = resolve(values.root!);
  const load = async <Module>(path: string): Promise<Module> =>
    (await import(pathToFileURL(join(root, path)).href)) as Module;
  const { SharedIndexInformer } = await load<typeof SharedInformerModule>('main/cache/shared-informer.ts');
  const { realClock } = await load<typeof RealClockModule>('main/cache/real-clock.ts');
  const { compactingListerWatcher } = await load<typeof CompactingListerWatcherModule>(
    'main/bridge/compacting-lister-watcher.ts',
  );
  const { createObjectCompactor } = await load<typeof ObjectCompactorModule>(
    'main/bridge/object-compactor.ts',
  );
  const { trackListing } = await load<typeof ListingProgressModule>('main/bridge/listing-progress.ts');
  const { ListPreview } = await load<typeof ListPreviewModule>('main/bridge/list-preview.ts');
  const { RowProjector } = await load<typeof RowProjectionModule>('main/bridge/row-projection.ts');
  const { httpListerWatcher } = await load<typeof ListerWatcherModule>('main/kube/lister-watcher.ts');
  const { Kubeconfig } = await load<typeof KubeconfigModule>('main/kube/kubeconfig.ts');
  const { RestClient } = await load<typeof RestClientModule>('main/kube/rest-client.ts');
  const { threadCpuMs } = await load<typeof ThreadCpuTimeModule>('main/history/thread-cpu-time.ts');

  const { readFileSync } = await import('node:fs');
  const connection = Kubeconfig.fromString(readFileSync(values.kubeconfig!, 'utf8')).connect();
  const client = new RestClient(connection);
  const compactor = createObjectCompactor();
  const projector = new RowProjector();
  let previewed = 0;
  const preview = new ListPreview(
    (object) => projector.project(object, Date.now()),
    () => void previewed++,
  );
  let listed = { listed: 0 };
  // When the LIST's items were all decoded, and when the Reflector had replaced its queue with them.
  let listedAt = Number.NaN;
  let replacedAt = Number.NaN;
  // This thread's CPU time at those two moments.
  let listedCpu = Number.NaN;
  let replacedCpu = Number.NaN;
  const tracked = trackListing(httpListerWatcher(client, { group: '', version: 'v1', resource: 'pods' }), {
    preview: () => preview,
    progress: () => listed,
    pageListed: (progress) => {
      listed = progress;
      listedAt = performance.now();
      listedCpu = threadCpuMs() ?? Number.NaN;
    },
  });
  const informer = new SharedIndexInformer({
    name: 'stalls pods',
    listerWatcher: compactingListerWatcher(tracked, compactor, realClock),
    clock: realClock,
    transform: compactor.transform,
    reflector: {
      onStateChange: (state) => {
        if (state.phase !== 'watching' || !Number.isNaN(replacedAt)) return;
        replacedAt = performance.now();
        replacedCpu = threadCpuMs() ?? Number.NaN;
      },
    },
  });
  let added = 0;
  const registration = informer.addEventHandler({
    onAdd: (object) => {
      added++;
      preview.take(`${object.metadata.namespace}/${object.metadata.name}`, object);
    },
  });

  const monitor = new CpuStallMonitor();
  monitor.start();
  const cpuBefore = process.cpuUsage();
  const mainBefore = threadCpuMs() ?? 0;
  const start = performance.now();
  const stop = new AbortController();
  const running = informer.run(stop.signal);
  await new Promise<void>((done) => {
    const check = () => (registration.hasSynced() ? done() : setTimeout(check, 2));
    check();
  });
  const syncMs = performance.now() - start;
  const mainCpuMs = (threadCpuMs() ?? 0) - mainBefore;
  const cpu = process.cpuUsage(cpuBefore);
  const longestCpuMs = monitor.stop() ?? Number.NaN;
  const stalls = monitor.cpuStalls();
  const { loadavg } = await import('node:os');
  const report: StallReport = {
    root,
    pods: added,
    syncMs,
    listedMs: listedAt - start,
    replacedMs: replacedAt - start,
    mainCpuMs,
    phaseCpuMs: [listedCpu - mainBefore, replacedCpu - listedCpu, mainBefore + mainCpuMs - replacedCpu],
    processCpuMs: (cpu.user + cpu.system) / 1000,
    longestCpuMs,
    longest: stalls.map(
      (stall) =>
        `${stall.cpuMs.toFixed(0)}/${stall.wallMs.toFixed(0)}` +
        (stall.collections.length ? ` [${stall.collections.join(', ')}]` : ''),
    ),
    over50: 0,
    longestSpan: stalls.map((stall) => `${stall.span.startUs} ${stall.span.endUs}`).join(', '),
    load: loadavg()
      .map((value) => value.toFixed(1))
      .join(' '),
  };
  report.over50 = stalls.filter((stall) => stall.cpuMs > longTaskMs).length;
  stop.abort();
  await running;
  connection.close();
  process.send?.(report, () => process.exit(0));
}

function runChild(root: string, url: string, kubeconfig: string, round: number): Promise<StallReport> {
  const execArgv = ['--import', 'tsx'];
  if (values.profile)
    execArgv.push('--cpu-prof', `--cpu-prof-dir=${join(values.profile, `${label(root)}-${round}`)}`);
  const entry = fileURLToPath(import.meta.url);
  return new Promise((done, fail) => {
    const process = fork(entry, ['--root', root, '--url', url, '--kubeconfig', kubeconfig], {
      execArgv,
      stdio: 'inherit',
    });
    let report: StallReport | undefined;
    process.on('message', (message) => (report = message as StallReport));
    process.on('exit', (code) => (report ? done(report) : fail(new Error(`child exited with ${code}`))));
  });
}

function label(root: string): string {
  return resolve(root).split('/').pop() ?? root;
}

async function parent(): Promise<void> {
  const roots = values.roots!.split(',').map((root) => resolve(root));
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'sync-stalls-')), 'kubeconfig');
  const cluster = await startClusterProcess({
    pods: Number(values.pods),
    kubeconfigPath: kubeconfig,
    log: (message) => console.log(message),
  });
  try {
    for (let round = 0; round < Number(values.rounds); round++) {
      const order = round % 2 === 0 ? roots : [...roots].reverse();
      for (const root of order) {
        const report = await runChild(root, cluster.url, kubeconfig, round);
        console.log(
          `round ${round + 1} ${label(root)}: ${report.pods} pods, listed ${report.listedMs.toFixed(0)}, ` +
            `replaced ${report.replacedMs.toFixed(0)}, synced ${report.syncMs.toFixed(0)} ms, ` +
            `main CPU ${report.mainCpuMs.toFixed(0)} ms (${report.phaseCpuMs.map((ms) => ms.toFixed(0)).join(' + ')}), process CPU ${report.processCpuMs.toFixed(0)} ms, ` +
            `longest iterations CPU/wall ms ${report.longest.join('; ')}; over ${longTaskMs} ms: ` +
            `${report.over50}; load ${report.load}` +
            (values.profile ? `; longest at ${report.longestSpan}` : ''),
        );
      }
    }
  } finally {
    await cluster.close();
  }
}

await (values.root ? child() : parent());
