// ui-startup.ts's `--timeline`: twice a second from the page's opening to its "synced" (and once when
// the timeline is made, before the browser starts: the backend alone since its own start), where the
// pods' rows are (listed by the backend's feed, sent in batches, acknowledged by the page as applied,
// waiting in the stream) beside each side's CPU time so far, to tell which side the other waits for.
// It reads the session's insides (a bench's look, not an API): its connections' subscription streams.
import type { CdpSession } from './cdp-connection';
import type { ClusterSession } from '../../main/bridge/cluster-session';
import { mainThreadWaitMs, processCpuMs, threadCpu } from './thread-cpu';
import type { PodsProgress } from './ui-backend-process';

interface StreamInsides {
  lastSeq: number;
  acknowledgedSeq: number;
  pendingCount: number;
  snapshotRows?: { size: number };
}

interface Sample {
  /** performance.now() when taken. */
  time: number;
  phase: string;
  listed: number;
  sentSeq: number;
  acknowledgedSeq: number;
  pending: number;
  laterKinds: boolean;
  backendMainMs: number;
  backendAllMs: number;
  pageMs: number;
  /** The backend main thread's time runnable but waiting for a core, and the cluster process's CPU. */
  backendMainWaitMs: number;
  clusterMs: number;
}

export class StartupTimeline {
  private readonly samples: Sample[];
  private timer: NodeJS.Timeout | undefined;
  private opened = 0;

  constructor(
    private readonly session: ClusterSession,
    private readonly backendStart: number,
    private readonly clusterPid?: number,
  ) {
    // Before the browser starts: what the backend did alone, and the CPU counts the later rows add to
    // (each is the process's or the thread's since its start).
    this.samples = [{ ...this.backend(), pageMs: 0 }];
  }

  start(cdp: CdpSession): void {
    this.opened = performance.now();
    const tick = async () => {
      const { metrics } = await cdp
        .send<{ metrics: { name: string; value: number }[] }>('Performance.getMetrics')
        .catch(() => ({ metrics: [] }));
      const pageMs = (metrics.find((entry) => entry.name === 'ThreadTime')?.value ?? 0) * 1000;
      this.samples.push({ ...this.backend(), pageMs });
    };
    this.timer = setInterval(() => void tick(), 500);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  describe(): string {
    const lines = [
      `timeline (s from navigation; backend started ${((this.opened - this.backendStart) / 1000).toFixed(1)} s before): ` +
        'phase listed | batches sent/acked, rows pending | later kinds | CPU s: backend main, backend all, page, cluster | backend main waiting for a core s',
    ];
    for (const sample of this.samples) {
      lines.push(
        `${((sample.time - this.opened) / 1000).toFixed(1).padStart(6)} ${sample.phase.padEnd(8)} ${String(sample.listed).padStart(7)} | ` +
          `${sample.sentSeq}/${sample.acknowledgedSeq}, ${sample.pending} | ${sample.laterKinds ? 'started' : 'waiting'} | ` +
          `${(sample.backendMainMs / 1000).toFixed(2)} ${(sample.backendAllMs / 1000).toFixed(2)} ${(sample.pageMs / 1000).toFixed(2)} ${(sample.clusterMs / 1000).toFixed(2)} | ` +
          `${(sample.backendMainWaitMs / 1000).toFixed(2)}`,
      );
    }
    return lines.join('\n');
  }

  private backend(): Omit<Sample, 'pageMs'> {
    const clusterMs = this.clusterPid === undefined ? Number.NaN : processCpuMs(this.clusterPid);
    const insides = this.session as unknown as { recordedKindsPending: boolean };
    const threads = threadCpu();
    return {
      time: performance.now(),
      ...podsProgress(this.session),
      laterKinds: !insides.recordedKindsPending,
      backendMainMs: threads.find((thread) => thread.id === process.pid)?.ms ?? 0,
      backendAllMs: threads.reduce((sum, thread) => sum + thread.ms, 0),
      backendMainWaitMs: mainThreadWaitMs(),
      clusterMs,
    };
  }
}

/** The pods feed's phase and count, and the (last) page's pods stream: batches sent, acked, rows waiting. */
export function podsProgress(session: ClusterSession): PodsProgress {
  const insides = session as unknown as {
    connections: Set<{ subscriptions: Map<string, { gvr: { resource: string }; stream: StreamInsides }> }>;
  };
  const state = session.feeds.find({ group: '', version: 'v1', resource: 'pods' }, '')?.syncState();
  let stream: StreamInsides | undefined;
  for (const connection of insides.connections) {
    for (const subscription of connection.subscriptions.values()) {
      if (subscription.gvr.resource === 'pods') stream = subscription.stream;
    }
  }
  return {
    phase: state?.phase ?? '-',
    listed: state?.phase === 'listing' ? (state.listed ?? 0) : 0,
    sentSeq: stream?.lastSeq ?? 0,
    acknowledgedSeq: stream?.acknowledgedSeq ?? 0,
    pending: (stream?.pendingCount ?? 0) + (stream?.snapshotRows?.size ?? 0),
  };
}
