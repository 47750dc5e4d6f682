// GET /api/v1/namespaces/{namespace}/pods/{name}/log: the kubelet's log reader behind kube-apiserver's
// proxy. The reply is text/plain, one line per log line, optionally prefixed with its RFC 3339
// timestamp (nine fractional digits). The options apply as in the kubelet's ReadLogs: tailLines picks
// the last lines of the current file, then since filters by time (inclusive), then limitBytes cuts the
// output, mid-line if it must. With follow the reply stays open and lines arrive as the run writes
// them, until the run exits, the pod is deleted or the client goes away.
import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../../shared/kube/object';
import type { ClusterStorage } from './cluster-storage';
import type { SimClock, SimTimer } from './clock';
import type { ContainerRun } from './container-log';
import { ContainerLog, defaultLinesPerFile, formatLogTimestamp } from './container-log';
import { containerNameFor, containerRunFor } from './container-run';
import { ChunkedWriter } from './http-io';
import type { PodLogOptions } from './pod-log-options';
import { readPodLogOptions } from './pod-log-options';
import type { ResourceType } from './resource-type';

type Json = Record<string, unknown>;

export class PodLogServer {
  private readonly pods: ResourceType;

  constructor(
    private readonly storage: ClusterStorage,
    private readonly clock: SimClock,
    private readonly linesPerFile = defaultLinesPerFile,
  ) {
    this.pods = storage.catalog.findAnyVersion('', 'pods') as ResourceType;
  }

  /** Every error is thrown before the reply's head is written, so it reaches the client as a Status. */
  async serve(
    namespace: string | undefined,
    name: string,
    query: URLSearchParams,
    response: ServerResponse,
  ): Promise<void> {
    // kube-apiserver decodes and validates the options before it looks the pod up.
    const options = readPodLogOptions(query, name);
    const pod = this.storage.get(this.pods, namespace, name).object;
    const container = containerNameFor(pod, options.container);
    const run = containerRunFor(pod, container, options.previous);
    const log = new ContainerLog(run, this.linesPerFile);
    const now = this.clock.now();
    const count = log.countAt(now);
    let first = log.firstRetained(count);
    if (options.tailLines !== undefined) first = Math.max(first, count - options.tailLines);
    const since =
      options.sinceTime ??
      (options.sinceSeconds !== undefined ? now - options.sinceSeconds * 1000 : undefined);
    if (since !== undefined) first = log.firstAtOrAfter(since, first, count);
    response.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
    const output = new LogOutput(response, options);
    const writer = new ChunkedWriter(response);
    for (let index = first; index < count && output.open; index++) {
      const pending = writer.push(output.format(log, index));
      if (pending) await pending.catch(() => output.close());
    }
    if (!response.destroyed) await writer.flush()?.catch(() => output.close());
    if (!options.follow || run.finishedAt !== undefined || !output.open) return output.end();
    this.follow(log, namespace, name, container, count, output);
  }

  private follow(
    log: ContainerLog,
    namespace: string | undefined,
    name: string,
    container: string,
    next: number,
    output: LogOutput,
  ): void {
    let timer: SimTimer | undefined;
    output.response.once('close', () => timer?.stop());
    const tick = () => {
      const current = this.runNow(namespace, name, container, log.run);
      // A pod deleted, or a run replaced by one we never saw end: the kubelet's reader stops.
      const reading = current ? new ContainerLog(current, log.linesPerFile) : undefined;
      const count = reading ? Math.min(reading.countAt(this.clock.now()), reading.total) : next;
      let text = '';
      for (; next < count; next++) text += output.format(reading as ContainerLog, next);
      if (text) output.write(text);
      if (!reading || reading.run.finishedAt !== undefined || !output.open) return output.end();
      timer = this.clock.setTimeout(tick, Math.max(0, reading.timeOf(next) - this.clock.now()));
    };
    timer = this.clock.setTimeout(tick, Math.max(0, log.timeOf(next) - this.clock.now()));
  }

  /** The run `run` as the pod's status shows it now (with its end once it has exited), if still there. */
  private runNow(
    namespace: string | undefined,
    name: string,
    container: string,
    run: ContainerRun,
  ): ContainerRun | undefined {
    const pod: KubeObject | undefined = this.storage.find(this.pods, namespace, name)?.object;
    if (!pod) return undefined;
    const status = (pod.status as Json | undefined) ?? {};
    for (const field of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses'])
      for (const candidate of (status[field] as Json[] | undefined) ?? []) {
        if (candidate.name !== container) continue;
        const state = (candidate.state as Json | undefined) ?? {};
        if ((state.running as Json | undefined) && candidate.containerID === run.id) return run;
        for (const terminated of [state.terminated, (candidate.lastState as Json | undefined)?.terminated])
          if ((terminated as Json | undefined)?.containerID === run.id) {
            const ended = terminated as Json;
            return {
              ...run,
              finishedAt: Date.parse(String(ended.finishedAt)),
              exitCode: Number(ended.exitCode),
            };
          }
      }
    return undefined;
  }
}

/** The reply body: timestamps prefix, limitBytes (counted in bytes, cutting mid-line as the kubelet does). */
class LogOutput {
  private remaining: number;
  open = true;

  constructor(
    readonly response: ServerResponse,
    private readonly options: PodLogOptions,
  ) {
    this.remaining = options.limitBytes ?? Number.POSITIVE_INFINITY;
    response.once('close', () => (this.open = false));
  }

  format(log: ContainerLog, index: number): string {
    const text = `${log.textOf(index)}\n`;
    const line = this.options.timestamps ? `${formatLogTimestamp(log.timeOf(index))} ${text}` : text;
    if (this.remaining === Number.POSITIVE_INFINITY) return line;
    const bytes = Buffer.byteLength(line);
    if (bytes < this.remaining) {
      this.remaining -= bytes;
      return line;
    }
    const cut = Buffer.from(line).subarray(0, this.remaining).toString('utf8');
    this.remaining = 0;
    this.open = false;
    return cut;
  }

  write(text: string): void {
    if (!this.response.destroyed) this.response.write(text);
  }

  close(): void {
    this.open = false;
  }

  end(): void {
    if (!this.response.destroyed && !this.response.writableEnded) this.response.end();
  }
}
