// The log of one run of a container, as the kubelet's CRI log file holds it: a startup banner, then
// a line at a steady pace while the run lasts, then the lines it wrote as it exited (a stack of errors
// for a crash). Lines are a pure function of the run and their index, so 150,000 pods log without
// holding a byte: memory per container is constant, however long it runs.
//
// Rotation follows the kubelet's: once the current file holds `linesPerFile` lines it is rotated
// away and a fresh one begins; `kubectl logs` reads only the current file, so the lines before the
// last rotation are gone for every reader (main/kube's log stream notices and says so).
import { logLineText } from './log-lines';

/** One run of a container: what the status's state (or lastState) says about it. */
export interface ContainerRun {
  /** The runtime's container id; distinct per restart, and the seed of the run's lines. */
  id: string;
  image: string;
  /** Epoch milliseconds. */
  startedAt: number;
  /** Set once the run has exited. */
  finishedAt?: number;
  exitCode?: number;
}

/** kubelet's default containerLogMaxSize is 10 MiB; at ~100 bytes a line that is ~100,000 lines. */
export const defaultLinesPerFile = 100_000;

const startupLines = 4;

function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++)
    value = Math.imul(value ^ text.charCodeAt(index), 0x01000193) >>> 0;
  return value;
}

export class ContainerLog {
  readonly seed: number;
  /** Milliseconds between two steady lines: 1 to 3 s, fixed per run. */
  readonly periodMs: number;
  private readonly exitLines: number;
  private readonly steadyLines: number;

  constructor(
    readonly run: ContainerRun,
    readonly linesPerFile = defaultLinesPerFile,
  ) {
    this.seed = hash(run.id);
    this.periodMs = 1000 + (this.seed % 2000);
    this.exitLines = run.finishedAt === undefined ? 0 : run.exitCode === 0 ? 1 : 3;
    this.steadyLines =
      run.finishedAt === undefined
        ? Number.POSITIVE_INFINITY
        : Math.max(0, Math.floor((run.finishedAt - this.exitLines - 1 - run.startedAt) / this.periodMs));
  }

  /** Lines the run writes in all; infinite while it runs. */
  get total(): number {
    return startupLines + this.steadyLines + this.exitLines;
  }

  /** When line `index` was written (epoch ms); strictly increasing in `index`. */
  timeOf(index: number): number {
    const { startedAt, finishedAt } = this.run;
    if (index < startupLines) return startedAt + index;
    const steady = index - startupLines;
    if (steady < this.steadyLines) return startedAt + (steady + 1) * this.periodMs;
    const exit = steady - this.steadyLines;
    const end = Math.max(finishedAt ?? 0, startedAt + startupLines + this.exitLines);
    return end - this.exitLines + exit;
  }

  textOf(index: number): string {
    const exit = index - startupLines - this.steadyLines;
    return logLineText(this.run.image, this.seed, index, this.timeOf(index), {
      startup: index < startupLines,
      exit: exit >= 0 ? { line: exit, code: this.run.exitCode ?? 0 } : undefined,
    });
  }

  /** How many lines were written by `time` (inclusive). */
  countAt(time: number): number {
    const { startedAt } = this.run;
    if (time < startedAt) return 0;
    const startup = Math.min(startupLines, time - startedAt + 1);
    const steady = Math.min(this.steadyLines, Math.floor((time - startedAt) / this.periodMs));
    let exit = 0;
    while (exit < this.exitLines && this.timeOf(startupLines + this.steadyLines + exit) <= time) exit++;
    return startup + steady + exit;
  }

  /** The first line still in the current file when `count` lines have been written. */
  firstRetained(count: number): number {
    return Math.floor(count / this.linesPerFile) * this.linesPerFile;
  }

  /** The first index in [from, to) whose time is >= `time` (to when none is). */
  firstAtOrAfter(time: number, from: number, to: number): number {
    let low = from;
    let high = to;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if (this.timeOf(middle) < time) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** RFC 3339 with nine fractional digits, the kubelet's timestamps=true prefix (timeFormatOut). */
export function formatLogTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}
