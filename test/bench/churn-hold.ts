// Holds the ui bench cluster's delivered change rate at a target, so that before/after runs of the
// churn window give the page the same work a minute. The simulator spends its churn budget per tick
// of a 100 ms timer (main/sim/simulation.ts): on a loaded machine its ticks come late and it makes
// fewer changes than asked, and the controllers' follow-ups (a deleted pod replaced, a rollout)
// come on top of the actions, so the cluster's changes a second are neither the asked rate nor
// steady. Session 15's runs asked for 2,000 and got 2,400-4,400 changes a second depending on the
// load. Here the cluster's resourceVersion (one counter over every kind: its growth counts every
// change made) is read once a second and the asked rate is scaled by target / measured, so the
// delivered rate settles at the target whatever the simulator's timer does.

export interface ChurnHoldCluster {
  readonly url: string;
  setChurn(changesPerSecond: number): Promise<void>;
}

/**
 * The cluster's resourceVersion: its growth counts the changes made, every kind. Bounded in time: a
 * simulator starved of a core answers late, and a bench must not hang on it.
 */
export async function clusterRevision(clusterUrl: string): Promise<number> {
  try {
    // Namespaces, not pods: the resourceVersion is the same (the store's), and a list of 150,000 pods,
    // even limited to one, timed out under load (the delivered rate came back NaN).
    const response = await fetch(`${clusterUrl}/api/v1/namespaces?limit=1`, {
      signal: AbortSignal.timeout(20_000),
    });
    const list = (await response.json()) as { metadata: { resourceVersion: string } };
    return Number(list.metadata.resourceVersion);
  } catch {
    return Number.NaN;
  }
}

/**
 * The asked rate's bounds, as a multiple of the target: one slow second must not ask for a storm that
 * swamps the simulator (an action makes about two changes, so 0.75 asks for 1.5x the target).
 */
const leastAskFactor = 0.1;
const mostAskFactor = 0.75;
/** How far one second's correction moves the asked rate toward target / measured (damped). */
const correctionWeight = 0.5;

export class ChurnHold {
  private timer: ReturnType<typeof setInterval> | undefined;
  private asked: number;
  private lastRevision = 0;
  private lastAt = 0;
  private windowRevision = 0;
  private windowAt = 0;

  /**
   * `target`: changes a second (resourceVersion growth) to hold; `initialAsk`: the first churn asked
   * (session 15's runs got about 2.1 changes per action asked).
   */
  constructor(
    private readonly cluster: ChurnHoldCluster,
    private readonly target: number,
    initialAsk = target / 2,
  ) {
    this.asked = initialAsk;
  }

  async start(): Promise<void> {
    this.lastRevision = this.windowRevision = await clusterRevision(this.cluster.url);
    this.lastAt = this.windowAt = performance.now();
    await this.cluster.setChurn(this.asked);
    let adjusting = false;
    this.timer = setInterval(() => {
      // One read at a time: a simulator starved of a core answers later than the next tick.
      if (adjusting) return;
      adjusting = true;
      void this.adjust()
        .catch(() => undefined)
        .finally(() => (adjusting = false));
    }, 1000);
  }

  /** Starts the window `delivered()` reports on (after a warm-up that let the rate settle). */
  async markWindow(): Promise<void> {
    this.windowRevision = await clusterRevision(this.cluster.url);
    this.windowAt = performance.now();
  }

  /** Changes a second delivered since markWindow (or start), and the asked rate now (NaN: unknown). */
  async delivered(): Promise<{ changesPerSecond: number; asked: number }> {
    const revision = await clusterRevision(this.cluster.url);
    const seconds = (performance.now() - this.windowAt) / 1000;
    return { changesPerSecond: (revision - this.windowRevision) / seconds, asked: this.asked };
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    // Once more if the first request fails: under load a kept-alive connection the cluster had just
    // closed failed it ("other side closed"), and the run's figures were lost with it.
    await this.cluster.setChurn(0).catch(() => this.cluster.setChurn(0));
  }

  private async adjust(): Promise<void> {
    const revision = await clusterRevision(this.cluster.url);
    const now = performance.now();
    if (Number.isNaN(revision)) return;
    const rate = (revision - this.lastRevision) / ((now - this.lastAt) / 1000);
    this.lastRevision = revision;
    this.lastAt = now;
    if (!(rate > 0)) return;
    const wanted = this.asked * (this.target / rate);
    const next = this.asked + correctionWeight * (wanted - this.asked);
    this.asked = Math.min(this.target * mostAskFactor, Math.max(this.target * leastAskFactor, next));
    await this.cluster.setChurn(Math.round(this.asked));
  }
}
