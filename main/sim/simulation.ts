// The controller loop of the embedded cluster: every tick the workload controllers reconcile what
// changed, the scheduler binds waiting pods, and churn performs its share of random actions. All
// timing comes from the injected clock, so tests can run the loop a tick at a time.
import type { ClusterStorage } from './cluster-storage';
import type { SimClock, SimTimer } from './clock';
import { Churn } from './churn';
import { EventRecorder } from './event-recorder';
import type { KubeletTiming } from './kubelet';
import { Kubelet, defaultKubeletTiming } from './kubelet';
import type { OwnerIndex } from './owner-index';
import type { SeededRandom } from './random';
import { WorkloadController } from './workload-controller';

export interface SimulationOptions {
  /** Milliseconds between controller passes (default 100). */
  intervalMs?: number;
  /** Random actions per second (default 0). */
  churnPerSecond?: number;
  timing?: Partial<KubeletTiming>;
  /** Events kept before the oldest are deleted (default 2,000). */
  maximumEvents?: number;
}

export class Simulation {
  readonly kubelet: Kubelet;
  readonly churn: Churn;
  readonly events: EventRecorder;
  private readonly workloads: WorkloadController;
  private readonly intervalMs: number;
  private churnPerSecond: number;
  private churnBudget = 0;
  private timer?: SimTimer;

  constructor(
    storage: ClusterStorage,
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
  }

  get churnRate(): number {
    return this.churnPerSecond;
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
    this.workloads.reconcile();
    this.kubelet.schedule();
    this.churnBudget += (this.churnPerSecond * this.intervalMs) / 1000;
    const actions = Math.floor(this.churnBudget);
    this.churnBudget -= actions;
    if (actions > 0) this.churn.step(actions);
  }

  close(): void {
    this.timer?.stop();
    this.timer = undefined;
    this.workloads.close();
    this.kubelet.close();
  }
}
