// npm run chaos -- [--production] --runs N --seed S [--pods P] [--kinds drop,gone,...]
// Run i uses seed S + i and prints one line; a failure also prints its fault schedule and the command
// that replays it. The last line is exactly "N passed, N failed"; the exit code is 1 if any failed.
import { parseChaosArguments } from './chaos-arguments';
import { chaosProfiles, runChaos } from './chaos-run';
import { describeSchedule } from './fault-schedule';

/**
 * The product logs every watch failure, as it should; during a chaos run that is hundreds of lines,
 * so they are counted per run and shown only with a failure.
 */
function captureConsole(): { lines: string[]; restore: () => void } {
  const { warn, error } = console;
  const lines: string[] = [];
  const collect = (...values: unknown[]) => {
    const first = values.map((value) => (value instanceof Error ? value.message : String(value))).join(' ');
    lines.push(first.split('\n')[0]);
  };
  console.warn = collect;
  console.error = collect;
  return {
    lines,
    restore: () => {
      console.warn = warn;
      console.error = error;
    },
  };
}

async function main(): Promise<void> {
  const options = parseChaosArguments(process.argv.slice(2));
  const profile = options.production ? chaosProfiles.production : chaosProfiles.fast;
  const { convergenceBoundMs } = profile;
  console.log(
    `chaos${options.production ? ' (production settings)' : ''}: ${options.runs} runs from seed ${options.seed}, ` +
      `${options.pods} pods, faults ${options.kinds.join(',')}${options.production ? ' + a blackhole' : ''}; ` +
      `bound ${convergenceBoundMs} ms after faults stop`,
  );
  let passed = 0;
  let failed = 0;
  for (let run = 0; run < options.runs; run++) {
    const seed = options.seed + run;
    const logged = captureConsole();
    const result = await runChaos({ seed, pods: options.pods, kinds: options.kinds, profile }).finally(
      logged.restore,
    );
    const faults = result.schedule.map((fault) => fault.kind).join(',');
    if (result.passed) {
      passed++;
      console.log(
        `run ${run + 1} seed ${seed}: passed, converged ${result.convergedMs} ms after faults stopped ` +
          `(${result.schedule.length} faults: ${faults}; ${logged.lines.length} warnings logged; ` +
          `longest event-loop stall ${result.maximumEventLoopDelayMs} ms; ${(result.totalMs / 1000).toFixed(1)} s)`,
      );
    } else {
      failed++;
      console.log(
        `run ${run + 1} seed ${seed}: FAILED, not converged within ${convergenceBoundMs} ms ` +
          `(longest event-loop stall ${result.maximumEventLoopDelayMs} ms)`,
      );
      console.log(result.failure);
      if (logged.lines.length) console.log(`last warnings logged:\n${logged.lines.slice(-5).join('\n')}`);
      console.log(`fault schedule of seed ${seed}:\n${describeSchedule(result.schedule)}`);
      console.log(
        `replay: npm run chaos -- ${options.production ? '--production ' : ''}--seed ${seed} --runs 1 ` +
          `--pods ${options.pods} --kinds ${options.kinds.join(',')}`,
      );
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
