// The command line of `npm run serve` (and of `npm start` when it falls back to browser mode).
// Parsed by hand: ten options do not justify a dependency, and every mistake gets a sentence that
// says what was wrong and what is accepted.

import type { RetentionPolicy } from '../history/retention';

export interface ServeOptions {
  /** 0 picks a free port. */
  port: number;
  kubeconfig?: string;
  context?: string;
  /** Use the embedded cluster even when a kubeconfig exists. */
  embedded: boolean;
  /** Pods the embedded cluster starts with. */
  pods: number;
  /** Open the UI in the system browser. */
  open: boolean;
  /** Where recordings live (default: the per-OS data directory). */
  dataDirectory?: string;
  /** Record the cluster's history (default true; --no-record turns it off). */
  record: boolean;
  /** Keep the last logs of containers that crash in the recording (default true; --no-crash-logs). */
  crashLogs?: boolean;
  /** How much history to keep: by age and by size, whichever limit is reached first. */
  retention: Required<RetentionPolicy>;
}

/** A week, and 2 GiB per context: enough to investigate last week's incident, small enough to forget. */
export const defaultRetention: Required<RetentionPolicy> = {
  maxAgeMs: 7 * 24 * 60 * 60 * 1000,
  maxBytes: 2048 * 1024 * 1024,
};

export const serveUsage = `Usage: npm run serve -- [options]

  --port N          listen on 127.0.0.1:N (default: a free port)
  --kubeconfig PATH use this kubeconfig instead of $KUBECONFIG or ~/.kube/config
  --context NAME    start on this kubeconfig context
  --embedded        use the embedded cluster even when a kubeconfig exists
  --pods N          pods in the embedded cluster (default 2000)
  --data-dir PATH   keep recordings under PATH instead of the per-OS data directory
  --no-record       do not record the cluster's history (time travel shows nothing new)
  --no-crash-logs   do not keep crashed containers' last logs in the recording
  --keep-days N     keep recorded history for N days (default 7)
  --keep-size MIB   keep at most MIB mebibytes of history per context (default 2048)
  --no-open         do not open a browser, only print the address
  --help            this text`;

export class ServeUsageError extends Error {
  override readonly name = 'ServeUsageError';
}

function integer(value: string | undefined, option: string, minimum: number, maximum: number): number {
  if (value === undefined || !/^\d+$/.test(value)) {
    throw new ServeUsageError(
      `${option} needs a whole number, got ${value === undefined ? 'nothing' : `"${value}"`}`,
    );
  }
  const number = Number(value);
  if (number < minimum || number > maximum) {
    throw new ServeUsageError(`${option} must be between ${minimum} and ${maximum}, got ${number}`);
  }
  return number;
}

function text(value: string | undefined, option: string): string {
  if (value === undefined || value === '' || value.startsWith('--'))
    throw new ServeUsageError(`${option} needs a value`);
  return value;
}

/** Parses argv (without node and script). Accepts `--option value` and `--option=value`. */
export function parseServeOptions(argv: readonly string[]): ServeOptions | 'help' {
  const options: ServeOptions = {
    port: 0,
    embedded: false,
    pods: 2000,
    open: true,
    record: true,
    crashLogs: true,
    retention: { ...defaultRetention },
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    const equals = argument.indexOf('=');
    const name = equals > 0 ? argument.slice(0, equals) : argument;
    const inline = equals > 0 ? argument.slice(equals + 1) : undefined;
    const value = () => inline ?? argv[++index];
    switch (name) {
      case '--port':
        options.port = integer(value(), name, 0, 65535);
        break;
      case '--kubeconfig':
        options.kubeconfig = text(value(), name);
        break;
      case '--context':
        options.context = text(value(), name);
        break;
      case '--pods':
        options.pods = integer(value(), name, 0, 300_000);
        break;
      case '--embedded':
        options.embedded = true;
        break;
      case '--data-dir':
        options.dataDirectory = text(value(), name);
        break;
      case '--no-record':
        options.record = false;
        break;
      case '--no-crash-logs':
        options.crashLogs = false;
        break;
      case '--keep-days':
        options.retention.maxAgeMs = integer(value(), name, 1, 3650) * 24 * 60 * 60 * 1000;
        break;
      case '--keep-size':
        options.retention.maxBytes = integer(value(), name, 16, 1_048_576) * 1024 * 1024;
        break;
      case '--no-open':
        options.open = false;
        break;
      case '--help':
      case '-h':
        return 'help';
      default:
        throw new ServeUsageError(`unknown option "${argument}"`);
    }
  }
  return options;
}
