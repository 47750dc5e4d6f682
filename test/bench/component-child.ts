// Child process of the renderer, history, travel and logs benchmarks: runs one of them against the parent's cluster
// and sends its result back. Each component is measured in a process that holds what it holds in the
// app, not the embedded cluster's 150,000 pods: the renderer's mirror lives in a renderer process, and
// a collector tracing the cluster's heap would bill its pauses to a batch apply or a history flush.
// Run with --expose-gc; argv: bench name, BenchOptions (JSON), SyncTarget (JSON).
import type { BenchOptions, BenchResult } from './harness';
import { runHistory } from './history';
import { runLogs } from './logs';
import { runRenderer } from './renderer';
import { runTravel } from './travel';
import type { SyncTarget } from './sync';

export const componentBenches = {
  renderer: runRenderer,
  history: runHistory,
  travel: runTravel,
  logs: runLogs,
} satisfies Record<string, (options: BenchOptions, target: SyncTarget) => Promise<BenchResult>>;

export type ComponentBench = keyof typeof componentBenches;

async function main(): Promise<void> {
  const [name, options, target] = process.argv.slice(2) as [ComponentBench, string, string];
  const result = await componentBenches[name](
    JSON.parse(options) as BenchOptions,
    JSON.parse(target) as SyncTarget,
  );
  process.send?.(result, () => process.exit(0));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
