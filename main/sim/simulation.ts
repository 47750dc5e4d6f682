// The controller loop of the embedded cluster: every tick the workload controllers reconcile what
// changed, cordoned nodes are tainted, new namespaces get their default ServiceAccount, the scheduler
// binds waiting pods, and churn performs its share of random actions. All timing comes from the
// injected clock, so tests can run the loop a tick at a time.
import type { ClusterStorage } from './cluster-storage';
import type { SimClock, SimTimer } from './clock';
import { Churn } from './churn';
import { DefaultServiceAccounts } from './default-service-accounts';
import { EventRecorder } from './event-recorder';
import type { KubeletTiming } from './kubelet';
import { Kubelet, defaultKubeletTiming } from './kubelet';
import type { OwnerIndex } from './owner-index';
import type { SeededRandom } from './random';
import { UnschedulableTaints } from './unschedulable-taints';
import { WorkloadController } from './workload-controller';

export interface SimulationOptions {
  /** Milliseconds between controller passes (default 100). */
  intervalMs?: number;
  /**
   * Changes per second that churn keeps the cluster at (default 0): new resourceVersions of any kind,
   * the controllers' and kubelet's follow-ups included (see tick).
   */
  churnPerSecond?: number;
  timing?: Partial<KubeletTiming>;
  /** Events kept before the oldest are deleted (default 2,000). */
  maximumEvents?: number;
}

/** How the controller loop kept time while churning (see Simulation.churnTiming). */
export interface ChurnTiming {
  /** Time late ticks could not make up: a tick churns for at most the last second (maximumMakeUpMs). */
  readonly unchurnedMs: number;
  readonly longestTickGapMs: number;
  /** The longest one tick's own work took (reconcile, schedule, churn). */
  readonly longestTickWorkMs: number;
}

/** The most time one late tick churns for: a longer stall's changes would come as one burst. */
const maximumMakeUpMs = 1000;

export class Simulation {
  readonly kubelet: Kubelet;
  readonly churn: Churn;
  readonly events: EventRecorder;
  private readonly workloads: WorkloadController;
  private readonly taints: UnschedulableTaints;
  private readonly serviceAccounts: DefaultServiceAccounts;
  private readonly intervalMs: number;
  private churnPerSecond: number;
  /** Changes churn may still make (negative: follow-ups ran ahead of the rate and are paid back). */
  private churnBudget = 0;
  /** The store's resourceVersion when the last tick ended: what came after it counts against the budget. */
  private revisionSeen = 0;
  private lastTick?: number;
  private timer?: SimTimer;
  /** How the loop kept time while churning: see churnTiming. */
  private readonly timing = { unchurnedMs: 0, longestTickGapMs: 0, longestTickWorkMs: 0 };

  constructor(
    private readonly storage: ClusterStorage,
    owners: OwnerIndex,
    private readonly clock: SimClock,
    random: SeededRandom,
    options: SimulationOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 100;
    this.churnPerSecond = options.churnPerSecond ?? 0;
    this.events = new EventRecorder(storage, clock, random, options.maximumEvents);
    this.workloads = new WorkloadController(storage, owners, this.events, clock, random);
    this.kubelet = new Kubelet(storage, this.events, clock, random, {
      ...defaultKubeletTiming,
      ...options.timing,
    });
    this.churn = new Churn(storage, this.kubelet, this.events, clock, random);
    this.taints = new UnschedulableTaints(storage, clock);
    this.serviceAccounts = new DefaultServiceAccounts(storage);
  }

  get churnRate(): number {
    return this.churnPerSecond;
  }

  /**
   * While churn ran: the time late ticks could not make up (a tick churns for at most the last second,
   * so a loop blocked 3 s, serving a large LIST say, leaves 2 s unchurned) and the longest gap between
   * ticks, and the longest a tick's own work took (reconcile, schedule, churn): a gap far longer than
   * any tick's work was the loop busy with requests, or waiting for a core. What tells a rate short of
   * the one asked from a cluster that was starved or blocked.
   */
  get churnTiming(): ChurnTiming {
    return { ...this.timing };
  }

  setChurn(changesPerSecond: number): void {
    this.churnPerSecond = Math.max(0, changesPerSecond);
  }

  start(): void {
    if (this.timer) return;
    const tick = () => {
      this.tick();
      this.timer = this.clock.setTimeout(tick, this.intervalMs);
    };
    this.timer = this.clock.setTimeout(tick, this.intervalMs);
  }

  /** One pass: reconcile, schedule, churn for one interval. */
  tick(): void {
    const began = this.clock.now();
    this.workloads.reconcile();
    this.taints.sync();
    this.serviceAccounts.sync();
    this.kubelet.schedule();
    const now = this.clock.now();
    const gap = now - (this.lastTick ?? now - this.intervalMs);
    if (this.churnPerSecond > 0) {
      this.timing.unchurnedMs += Math.max(0, gap - maximumMakeUpMs);
      this.timing.longestTickGapMs = Math.max(this.timing.longestTickGapMs, gap);
    }
    // A late tick (the simulator's thread busy, or waiting for a core) churns for the time that passed.
    this.churnFor(Math.min(maximumMakeUpMs, gap));
    this.lastTick = now;
    if (this.churnPerSecond > 0)
      this.timing.longestTickWorkMs = Math.max(this.timing.longestTickWorkMs, this.clock.now() - began);
  }

  /**
   * Random actions until the interval's share of the rate is made. The rate counts every change, not
   * actions: one action is 1 to ~2,000 changes (a pod restarted is one; a node failed evicts its ~150
   * pods, each deleted, replaced, scheduled, started and evented), so counting actions made a rate of
   * 2,000 mean ~70,000 changes a second at 150,000 pods, which a single-threaded simulator could never
   * make and instead made as fast as its core allowed, taking that core from whatever shares the
   * machine. Changes made since the last interval (follow-ups of earlier actions, timers, other
   * clients' writes) are counted first and pause the churn until they are paid for, so the rate holds
   * on average (a node's evictions, the largest burst, pause it ~1.5 s at 2,000 a second and 150 pods
   * a node); nothing is saved up past one interval's share.
   */
  private churnFor(intervalMs: number): void {
    const store = this.storage.store;
    if (this.churnPerSecond === 0) {
      this.churnBudget = 0;
      this.revisionSeen = store.resourceVersion;
      return;
    }
    const share = (this.churnPerSecond * intervalMs) / 1000;
    const madeMeanwhile = store.resourceVersion - this.revisionSeen;
    this.churnBudget = Math.min(share, this.churnBudget + share - madeMeanwhile);
    while (this.churnBudget >= 1) {
      const before = store.resourceVersion;
      this.churn.step(1);
      // An action that changed nothing (a pod not in the state it wanted) still counts one, so a tick ends.
      this.churnBudget -= Math.max(1, store.resourceVersion - before);
    }
    this.revisionSeen = store.resourceVersion;
  }

  close(): void {
    this.timer?.stop();
    this.timer = undefined;
    this.workloads.close();
    this.taints.close();
    this.serviceAccounts.close();
    this.kubelet.close();
  }
}
