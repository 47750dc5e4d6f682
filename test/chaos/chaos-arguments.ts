// The arguments of npm run chaos, parsed strictly: a typo must not silently run the defaults.
import { faultKinds, isFaultKind } from './fault-schedule';
import type { FaultKind } from './fault-schedule';

export interface ChaosArguments {
  runs: number;
  seed: number;
  pods: number;
  kinds: FaultKind[];
  /** Real timers, backoff and bookmark cadence, TLS + HTTP/2, a blackhole each run (chaosProfiles.production). */
  production: boolean;
}

/** Parses the CLI arguments; throws with a usage message on anything it does not understand. */
export function parseChaosArguments(argv: readonly string[]): ChaosArguments {
  const parsed: ChaosArguments = {
    runs: 1,
    seed: Date.now() % 1_000_000,
    pods: argv.includes('--production') ? 3_000 : 300,
    kinds: [...faultKinds],
    production: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const name = argv[index];
    const value = argv[index + 1];
    const number = () => {
      const result = Number(value);
      if (!Number.isInteger(result) || result < 0)
        throw new Error(`${name} needs a whole number, got ${value}`);
      index++;
      return result;
    };
    if (name === '--production') parsed.production = true;
    else if (name === '--runs') parsed.runs = number();
    else if (name === '--seed') parsed.seed = number();
    else if (name === '--pods') parsed.pods = number();
    else if (name === '--kinds') {
      const kinds = (value ?? '').split(',').filter(Boolean);
      const unknown = kinds.filter((kind) => !isFaultKind(kind));
      if (kinds.length === 0 || unknown.length)
        throw new Error(`--kinds takes a comma-separated list of ${faultKinds.join(', ')}; got ${value}`);
      parsed.kinds = kinds as FaultKind[];
      index++;
    } else
      throw new Error(
        `unknown argument ${name}; usage: [--production] --runs N --seed S [--pods P] [--kinds a,b]`,
      );
  }
  return parsed;
}
