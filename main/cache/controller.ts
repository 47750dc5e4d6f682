// The engine inside a shared informer (client-go controller.go's controller): a Reflector fills a
// DeltaFIFO from the API server while a process loop pops it, one key's Deltas at a time.
import type { KubeObject } from '../../shared/kube/object';
import type { Clock } from './clock';
import type { Deltas } from './delta';
import { DeltaFIFO } from './delta-fifo';
import type { Indexer } from './indexer';
import { deletionHandlingMetaNamespaceKeyFunc } from './keys';
import type { ListerWatcher } from './lister-watcher';
import type { HandlerErrorReporter } from './processor-listener';
import { reportToConsole } from './processor-listener';
import { FIFOClosedError } from './queue';
import { AppliedPhase } from './applied-phase';
import type { ReflectorOptions, ReflectorState, WatchErrorHandler } from './reflector';
import { Reflector } from './reflector';
import type { TransformFunc } from './store';
import { TurnBudget } from './turn-budget';

/** Reflector settings an informer passes through untouched (backoff, watch-list, logging, ...). */
export type ReflectorTuning<T extends KubeObject> = Partial<
  Omit<
    ReflectorOptions<T>,
    'name' | 'listerWatcher' | 'store' | 'resyncPeriod' | 'shouldResync' | 'clock' | 'watchErrorHandler'
  >
>;

export interface InformerControllerOptions<T extends KubeObject> {
  /** Names the Reflector and this controller in logs and errors. */
  name: string;
  listerWatcher: ListerWatcher<T>;
  /** The informer's cache: the DeltaFIFO's knownObjects, so relists can infer deletions and resyncs. */
  indexer: Indexer<T>;
  /** Runs as each object enters the queue (see DeltaFIFOOptions.transformer). */
  transform?: TransformFunc;
  /** How often the Reflector asks `shouldResync`, in ms; 0 never (client-go's FullResyncPeriod). */
  fullResyncPeriod: number;
  shouldResync?: () => boolean;
  /** Handles one key's Deltas. It runs synchronously inside pop; a throw drops those Deltas (no requeue). */
  process: (deltas: Deltas<T>, isInInitialList: boolean) => void;
  /** The Reflector's phase as the processed cache reflects it (see DeltaObserver.observePhase). */
  onAppliedPhase?: (state: ReflectorState) => void;
  watchErrorHandler?: WatchErrorHandler;
  clock: Clock;
  /** Told when `process` throws; default console.error. */
  reportError?: HandlerErrorReporter;
  reflector?: ReflectorTuning<T>;
}

/**
 * Pops handled back to back before the loop yields to I/O (a turn also ends at turnBudgetMs), so a
 * large list cannot starve it.
 */
const popsPerTurn = 1000;

/**
 * Runs once: build the queue (emitting Replaced, so relists are told apart from resyncs) and the
 * Reflector, then pop until the signal aborts. Aborting closes the queue; run resolves once the
 * Reflector has released everything and the process loop has returned.
 */
export class InformerController<T extends KubeObject = KubeObject> {
  private readonly queue: DeltaFIFO<T>;
  private readonly reflector: Reflector<T>;
  private readonly reportError: HandlerErrorReporter;
  private readonly appliedPhase: AppliedPhase | undefined;
  private readonly process: (deltas: Deltas<T>, isInInitialList: boolean) => void;

  constructor(private readonly options: InformerControllerOptions<T>) {
    this.queue = new DeltaFIFO<T>({
      keyFunction: deletionHandlingMetaNamespaceKeyFunc,
      knownObjects: options.indexer,
      emitDeltaTypeReplaced: true,
      transformer: options.transform,
      // Observers learn when each change arrived, not only when it was popped (see DeltaObserver).
      arrivalClock: options.clock,
    });
    this.reflector = new Reflector<T>({
      ...options.reflector,
      name: options.name,
      listerWatcher: options.listerWatcher,
      store: this.queue,
      resyncPeriod: options.fullResyncPeriod,
      shouldResync: options.shouldResync,
      clock: options.clock,
      ...(options.watchErrorHandler ? { watchErrorHandler: options.watchErrorHandler } : {}),
      onStateChange: (state) => {
        options.reflector?.onStateChange?.(state);
        this.appliedPhase?.reflectorPhase(state, this.queue.queuedCount());
      },
    });
    this.reportError = options.reportError ?? reportToConsole;
    const onAppliedPhase = options.onAppliedPhase;
    this.appliedPhase = onAppliedPhase && new AppliedPhase(onAppliedPhase);
    const appliedPhase = this.appliedPhase;
    this.process = appliedPhase
      ? (deltas, isInInitialList) => {
          try {
            options.process(deltas, isInInitialList);
          } finally {
            appliedPhase.popped();
          }
        }
      : options.process;
  }

  async run(signal: AbortSignal): Promise<void> {
    const closeQueue = () => this.queue.close();
    if (signal.aborted) closeQueue();
    else signal.addEventListener('abort', closeQueue, { once: true });
    // The Reflector returns only once stopped (or broken): either way nothing more will be queued.
    const reflecting = this.reflector.run(signal).finally(closeQueue);
    await Promise.all([reflecting, this.processLoop()]);
  }

  /** True once the first full list has been popped and processed entirely. */
  hasSynced(): boolean {
    return this.queue.hasSynced();
  }

  lastSyncResourceVersion(): string {
    return this.reflector.lastSyncResourceVersion();
  }

  /** See Reflector.restartWatch. */
  restartWatch(): void {
    this.reflector.restartWatch();
  }

  private async processLoop(): Promise<void> {
    const turn = new TurnBudget(this.options.clock, popsPerTurn);
    for (;;) {
      try {
        // Only an empty queue costs an await: a burst the Reflector queued drains synchronously.
        if (this.queue.popQueued(this.process) === undefined) {
          turn.reset();
          await this.queue.pop(this.process);
        }
      } catch (error) {
        if (error instanceof FIFOClosedError) return;
        this.reportError(error, `${this.options.name}: processing deltas failed`);
      }
      if (turn.spend()) await turn.nextTurn();
    }
  }
}
