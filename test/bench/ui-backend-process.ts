// The parent's side of ui-backend-child.ts: Kubetide in browser mode in a process of its own, asked
// for one-time page addresses and for its own CPU and event-loop figures over a window the bench
// chooses. Each request waits for its reply (by id); the child's output is this process's.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { MonotonicSpan } from './cpu-stall-monitor';

export interface BackendChildOptions {
  pods: number;
  kubeconfig: string;
  dataDirectory: string;
}

/** What the backend's process did over a measured window. */
export interface BackendFigures {
  wallMs: number;
  /** Every thread of the process: main, the recording and query workers, the browser server. */
  processCpuMs: number;
  /** The main thread alone (informers, feeds, bridge), where the platform tells it (Linux). */
  mainThreadCpuMs?: number;
  /** The event loop's longest delay (monitorEventLoopDelay), wall time. */
  loopStallMs: number;
  /** The same in this thread's CPU time (CpuStallMonitor), where the platform tells it. */
  loopStallCpuMs?: number;
  /** Where that longest stall in CPU time was, on a .cpuprofile's clock (us), to cut a profile to it. */
  loopStallCpuSpan?: MonotonicSpan;
  /** Every collection of the window by kind, and what its long wall-time stalls were made of. */
  collections?: string;
  wallStalls?: string[];
  /** CPU time per thread over the window (thread-cpu.ts's describeThreadCpu), where Linux tells it. */
  threads?: string;
}

/** Where the pods' rows are: the backend's pods feed and the page's pods stream (startup-timeline.ts). */
export interface PodsProgress {
  phase: string;
  listed: number;
  sentSeq: number;
  acknowledgedSeq: number;
  pending: number;
}

export type BackendRequest =
  { type: 'launch-url' | 'measure-start' | 'measure-stop' | 'progress'; id: number } | { type: 'close' };

export type BackendReply =
  | { type: 'ready' }
  | { type: 'launch-url'; id: number; url: string }
  | { type: 'measure-started'; id: number }
  | { type: 'figures'; id: number; figures: BackendFigures }
  | { type: 'progress'; id: number; progress: PodsProgress }
  | { type: 'error'; id: number; message: string };

const childEntry = fileURLToPath(new URL('./ui-backend-child.ts', import.meta.url));
const startTimeoutMs = 600_000;
const closeTimeoutMs = 30_000;

export class BackendProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: BackendReply) => void>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: BackendReply) => {
      if (!('id' in reply)) return;
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
  }

  /** nodeArguments go before the entry (e.g. --cpu-prof, whose profile is written when the backend closes). */
  static start(options: BackendChildOptions, nodeArguments: readonly string[] = []): Promise<BackendProcess> {
    const child = spawn(
      process.execPath,
      [...nodeArguments, '--import', 'tsx', childEntry, JSON.stringify(options)],
      {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the backend did not start in ${startTimeoutMs / 1000} s`));
      }, startTimeoutMs);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the backend exited before it was ready (${signal ?? `code ${code}`})`));
      });
      child.once('message', (reply: BackendReply) => {
        if (reply.type !== 'ready') return;
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve(new BackendProcess(child));
      });
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** The pods feed's phase and the pods stream's batches (a bench's look at the backend's insides). */
  async progress(): Promise<PodsProgress> {
    const reply = await this.request('progress');
    if (reply.type !== 'progress') throw new Error(`the backend answered ${reply.type} to progress`);
    return reply.progress;
  }

  /** A fresh one-time address of the app. */
  async launchUrl(): Promise<string> {
    const reply = await this.request('launch-url');
    if (reply.type !== 'launch-url') throw new Error(`the backend answered ${reply.type} to launch-url`);
    return reply.url;
  }

  async startMeasuring(): Promise<void> {
    await this.request('measure-start');
  }

  async stopMeasuring(): Promise<BackendFigures> {
    const reply = await this.request('measure-stop');
    if (reply.type !== 'figures') throw new Error(`the backend answered ${reply.type} to measure-stop`);
    return reply.figures;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.send({ type: 'close' } satisfies BackendRequest);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), closeTimeoutMs);
    await exited;
    clearTimeout(timer);
  }

  private request(type: 'launch-url' | 'measure-start' | 'measure-stop' | 'progress'): Promise<BackendReply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onExit = () => reject(new Error(`the backend exited while asked for ${type}`));
      this.child.once('exit', onExit);
      this.waiting.set(id, (reply) => {
        this.child.off('exit', onExit);
        if (reply.type === 'error') reject(new Error(reply.message));
        else resolve(reply);
      });
      this.child.send({ type, id } satisfies BackendRequest);
    });
  }
}
