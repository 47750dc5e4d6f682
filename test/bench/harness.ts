// What every benchmark shares: the command-line options, the result shape the table and --json print,
// the clients each contender uses against the embedded cluster, and the small measuring tools (GC,
// percentiles, event-loop stalls). Times are wall-clock in one process run; only ratios between
// contenders measured in the same run are meaningful on a shared machine.
import { fork } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createGunzip } from 'node:zlib';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { compactingListerWatcher } from '../../main/bridge/compacting-lister-watcher';
import { createObjectCompactor } from '../../main/bridge/object-compactor';
import type { ListerWatcher } from '../../main/cache/lister-watcher';
import { realClock } from '../../main/cache/real-clock';
import type { TransformFunc } from '../../main/cache/store';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { httpListerWatcher } from '../../main/kube/lister-watcher';
import { RestClient } from '../../main/kube/rest-client';
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import { benchDrivers } from './bench-page';
import type { BenchDriver } from './bench-page';

export interface BenchOptions {
  /** Pods seeded in the embedded cluster (default 50,000). */
  pods: number;
  /** Watch events in the replayed stream (default 100,000). */
  events: number;
  /** Events in the history benchmark's recording (default 1,000,000, the size issue 7 names). */
  historyEvents: number;
  /** Whether the history benchmark's recorder writes row frames (`--history-frames off`: to see their cost). */
  historyFrames: boolean;
  /** Pods of the travel benchmark's recording (default 150,000, issue 12's size). */
  travelPods: number;
  /** Lines the logs benchmark streams into a log view's store (default 1,000,000, issue 14's size). */
  logLines: number;
  /** Pods of the ui benchmark's cluster: --pods when given, else 150,000 (issue 15's size). */
  uiPods: number;
  /** Changes a second in the ui benchmark's cluster (default 2,000, issue 15's rate). */
  uiChurn: number;
  /** Seconds the ui benchmark watches the idle page under churn (long tasks, main CPU). */
  uiSeconds: number;
  /** A short ui run for smoke tests: one text per selector form, a short scroll. */
  uiBrief: boolean;
  /**
   * The benches' cluster (not the ui bench's) gzips LIST replies over 128 KiB, as kube-apiserver does
   * for the clients that ask (`--gzip`): every contender asks, so each pays the inflate.
   */
  gzip: boolean;
  /**
   * The sync bench's cluster serves TLS with HTTP/2 and HTTP/1.1 by ALPN, as a real API server does
   * (`--tls`, with `--only sync`): Kubetide negotiates HTTP/2, client-node and the floor HTTP/1.1.
   */
  tls: boolean;
  /**
   * How the ui benchmark drives Chromium: `playwright` (playwright-core, the default; its Network
   * domain copies every WebSocket frame on the page's main thread), or `cdp`, its own bare DevTools
   * connection (no such copy; see bench-page.ts for why it is not the default).
   */
  uiDriver: BenchDriver;
  /** Write the ui benchmark's page CPU profiles to test-artifacts/ui-bench. */
  profile: boolean;
  /** Run only the benchmarks of these names (`--only sync,watch`). */
  only?: BenchName[];
  /** One JSON object per benchmark instead of the table. */
  json: boolean;
}

export const benchNames = ['sync', 'watch', 'bridge', 'renderer', 'history', 'travel', 'logs', 'ui'] as const;
export type BenchName = (typeof benchNames)[number];

/** A goal of issue 7: the measured value, the bound, and whether the run met it. */
export interface GoalCheck {
  goal: string;
  measured: string;
  pass: boolean;
}

/** One benchmark's output: `fields` are printed verbatim by --json under the names. */
export interface BenchResult {
  bench: BenchName;
  fields: Record<string, number | string | boolean | null | readonly number[]>;
  goals: GoalCheck[];
  notes?: string[];
}

export const podsResource: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };

/**
 * Parses `--pods N --events M --history-events H --history-frames on|off --travel-pods T --log-lines L --churn C --ui-seconds S --ui-brief --gzip --tls
 * --driver cdp|playwright --profile --only NAME[,NAME] --json`; throws on anything else.
 */
export function parseBenchArguments(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = {
    pods: 50_000,
    events: 100_000,
    historyEvents: 1_000_000,
    historyFrames: true,
    travelPods: 150_000,
    logLines: 1_000_000,
    uiPods: 150_000,
    uiChurn: 2_000,
    uiSeconds: 60,
    uiBrief: false,
    gzip: false,
    tls: false,
    uiDriver: 'playwright',
    profile: false,
    json: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    const value = (): string => {
      const next = argv[++index];
      if (next === undefined) throw new Error(`${argument} needs a value`);
      return next;
    };
    if (argument === '--json') options.json = true;
    else if (argument === '--pods') options.pods = options.uiPods = positiveInteger(argument, value());
    else if (argument === '--events') options.events = positiveInteger(argument, value());
    else if (argument === '--history-events') options.historyEvents = positiveInteger(argument, value());
    else if (argument === '--history-frames') options.historyFrames = onOrOff(argument, value());
    else if (argument === '--travel-pods') options.travelPods = positiveInteger(argument, value());
    else if (argument === '--log-lines') options.logLines = positiveInteger(argument, value());
    else if (argument === '--churn') options.uiChurn = positiveInteger(argument, value());
    else if (argument === '--ui-seconds') options.uiSeconds = positiveInteger(argument, value());
    else if (argument === '--profile') options.profile = true;
    else if (argument === '--ui-brief') options.uiBrief = true;
    else if (argument === '--gzip') options.gzip = true;
    else if (argument === '--tls') options.tls = true;
    else if (argument === '--driver') {
      const driver = value();
      if (!(benchDrivers as readonly string[]).includes(driver))
        throw new Error(`--driver takes ${benchDrivers.join(' or ')}; got "${driver}"`);
      options.uiDriver = driver as BenchDriver;
    } else if (argument === '--only') {
      const names = value().split(',');
      for (const name of names)
        if (!(benchNames as readonly string[]).includes(name))
          throw new Error(
            `--only takes names among ${benchNames.join(', ')}, comma-separated; got "${name}"`,
          );
      options.only = names as BenchName[];
    } else
      throw new Error(
        `unknown argument "${argument}" (options: --pods N --events M --history-events H --history-frames on|off --travel-pods T --log-lines L --churn C --ui-seconds S --ui-brief --gzip --tls --driver cdp|playwright --profile --only NAME[,NAME] --json)`,
      );
  }
  return options;
}

function onOrOff(argument: string, value: string): boolean {
  if (value !== 'on' && value !== 'off') throw new Error(`${argument} takes on or off, got "${value}"`);
  return value === 'on';
}

function positiveInteger(name: string, text: string): number {
  const parsed = Number(text.replace(/_/g, ''));
  if (!Number.isInteger(parsed) || parsed <= 0)
    throw new Error(`${name} takes a positive integer; got "${text}"`);
  return parsed;
}

/** Collects garbage when the process runs with --expose-gc (a no-op otherwise). */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  gc();
  gc();
}

export function hasExposedGc(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === 'function';
}

/** The p-th percentile (0..100) of `values` by nearest rank; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Rounds for printing: 3 significant decimals below 10, 1 decimal below 1,000, integers above. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const magnitude = Math.abs(value);
  const decimals = magnitude < 10 ? 3 : magnitude < 1000 ? 1 : 0;
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Watches the event loop; `maxStallMs` is the longest delay a 10 ms-resolution timer saw. */
export function startLoopStallMonitor(): { stop(): number } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    stop() {
      histogram.disable();
      return histogram.max / 1e6;
    },
  };
}

/** The transform the app's feeds give their informers (main/bridge/feed.ts), fresh per informer. */
export function kubetideTransform(): TransformFunc {
  return createObjectCompactor().transform;
}

/**
 * What a feed gives its pods informer (main/bridge/feed.ts): the HTTP ListerWatcher, LIST items
 * compacted in turns ahead of DeltaFIFO, and the same compactor as the informer's transform.
 */
export function kubetideInformerParts(client: RestClient): {
  listerWatcher: ListerWatcher<KubeObject>;
  transform: TransformFunc;
} {
  const compactor = createObjectCompactor();
  return {
    listerWatcher: compactingListerWatcher(httpListerWatcher(client, podsResource), compactor, realClock),
    transform: compactor.transform,
  };
}

/** Kubetide's own HTTP client for the cluster at `kubeconfigYaml`, as the app builds it. */
export function kubetideClient(kubeconfigYaml: string): { client: RestClient; close(): void } {
  const connection = Kubeconfig.fromString(kubeconfigYaml).connect();
  return { client: new RestClient(connection), close: () => connection.close() };
}

/** client-node's KubeConfig for a plain-HTTP server, as the brief prescribes. */
export function clientNodeConfig(server: string): KubeConfig {
  const config = new KubeConfig();
  config.loadFromClusterAndUser({ name: 'bench', server, skipTLSVerify: true }, { name: 'bench' });
  return config;
}

export function clientNodeCoreApi(config: KubeConfig): CoreV1Api {
  return config.makeApiClient(CoreV1Api);
}

/**
 * The body of a GET, whole: the floor's read (one GET over a keep-alive agent, the chunks concatenated
 * once). It accepts gzip, as every client of a real API server does (a compressing
 * cluster, `--gzip`, then gzips a big reply): a gzipped body is inflated as it arrives, on zlib's
 * threads, so the floor pays what any client of such a server pays.
 */
export function getBody(url: string, agent?: http.Agent): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const headers = { accept: 'application/json', 'accept-encoding': 'gzip' };
    // An https:// cluster (--tls) is read through an https.Agent trusting its CA.
    const transport = url.startsWith('https:') ? https : http;
    const request = transport.get(url, { agent, headers }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`GET ${url}: HTTP ${response.statusCode}`));
        return;
      }
      const body = response.headers['content-encoding'] === 'gzip' ? response.pipe(createGunzip()) : response;
      const chunks: Buffer[] = [];
      body.on('data', (chunk: Buffer) => chunks.push(chunk));
      body.on('end', () => resolve(Buffer.concat(chunks)));
      body.on('error', reject);
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Resolves once `condition` holds, checking every `intervalMs`; rejects after `timeoutMs`. */
export function waitUntil(
  condition: () => boolean,
  timeoutMs: number,
  what: string,
  intervalMs = 2,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = performance.now() + timeoutMs;
    const check = () => {
      if (condition()) return resolve();
      if (performance.now() > deadline)
        return reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      setTimeout(check, intervalMs);
    };
    check();
  });
}

/** `measured <= bound`, worded for the table. */
export function atMost(goal: string, measured: number, bound: number, unit = ''): GoalCheck {
  return {
    goal,
    measured: `${round(measured)}${unit}`,
    pass: Number.isFinite(measured) && measured <= bound,
  };
}

/** `measured >= bound`, worded for the table. */
export function atLeast(goal: string, measured: number, bound: number, unit = ''): GoalCheck {
  return {
    goal,
    measured: `${round(measured)}${unit}`,
    pass: Number.isFinite(measured) && measured >= bound,
  };
}

/**
 * Runs a bench entry file in a fresh Node process (with --expose-gc, through tsx) and resolves with
 * the one message it sends before exiting.
 */
export function runInChild<Report>(entry: URL, args: readonly string[]): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = fork(entry, [...args], {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let report: Report | undefined;
    child.on('message', (message) => (report = message as Report));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (report !== undefined) resolve(report);
      else reject(new Error(`${entry.pathname} exited with code ${code} and no report`));
    });
  });
}
