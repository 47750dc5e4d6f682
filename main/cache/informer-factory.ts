// client-go's dynamic SharedInformerFactory (informers/factory.go, dynamic/dynamicinformer): one shared
// informer per GroupVersionResource, so every consumer of a resource shares one list+watch and one cache.
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import { gvrKey } from '../../shared/kube/object';
import type { Clock } from './clock';
import type { ReflectorTuning } from './controller';
import { metaNamespaceIndexFunc, namespaceIndex } from './indexer';
import type { ListOptions, ListerWatcher } from './lister-watcher';
import { GenericLister } from './lister';
import type { HandlerErrorReporter } from './processor-listener';
import { reportToConsole } from './processor-listener';
import { realClock } from './real-clock';
import { SharedIndexInformer } from './shared-informer';
import type { TransformFunc } from './store';
import { waitForCacheSync } from './wait';

/** Adjusts the options of every LIST and WATCH (e.g. to add a label or field selector). */
export type TweakListOptions = (options: ListOptions) => void;

/**
 * Builds the ListerWatcher for one resource in one namespace ("" for all namespaces); it must pass
 * every list and watch option through `tweakListOptions` before sending it. main/kube provides the
 * HTTP one.
 */
export type ListerWatcherFactory = (
  gvr: GroupVersionResource,
  namespace: string,
  tweakListOptions: TweakListOptions | undefined,
) => ListerWatcher<KubeObject>;

export interface SharedInformerFactoryOptions {
  /** Restricts every informer to one namespace; "" (default) watches all namespaces. */
  namespace?: string;
  tweakListOptions?: TweakListOptions;
  /** The default handler resync period of every informer, in ms (0, the default: never). */
  defaultResync?: number;
  /** Per-resource resync periods (ms), keyed by gvrKey(gvr); they override defaultResync. */
  customResync?: ReadonlyMap<string, number>;
  /** Applied to every object as it enters each informer's queue (e.g. to strip managedFields). */
  transform?: TransformFunc;
  clock?: Clock;
  reportError?: HandlerErrorReporter;
  reflector?: ReflectorTuning<KubeObject>;
}

/**
 * What the Reflector's messages call the listed objects: GroupVersionResource.String(), as client-go's
 * dynamic informers pass it (ObjectDescription), e.g. "apps/v1, Resource=deployments", "/v1,
 * Resource=pods". Without it a Reflector of untyped objects says "<unspecified>".
 */
export function resourceDescription(gvr: GroupVersionResource): string {
  return `${gvr.group}/${gvr.version}, Resource=${gvr.resource}`;
}

/** One resource's shared informer and a lister over its cache (client-go's GenericInformer). */
export interface GenericInformer {
  informer(): SharedIndexInformer<KubeObject>;
  lister(): GenericLister<KubeObject>;
}

/**
 * Hands out one informer per resource, created on first request with the "namespace" index, and runs
 * them: start() starts those not yet started (call it again after requesting more), shutdown() stops
 * them all. An informer belongs to the factory: do not run it yourself.
 */
export class SharedInformerFactory {
  private readonly informers = new Map<string, GenericInformer>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly stopAll = new AbortController();
  private readonly clock: Clock;

  constructor(
    private readonly newListerWatcher: ListerWatcherFactory,
    private readonly options: SharedInformerFactoryOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
  }

  /** The shared informer for `gvr`, created (not started) on first request. */
  forResource(gvr: GroupVersionResource): GenericInformer {
    const key = gvrKey(gvr);
    const existing = this.informers.get(key);
    if (existing) return existing;
    const informer = new SharedIndexInformer<KubeObject>({
      name: key,
      listerWatcher: this.newListerWatcher(gvr, this.options.namespace ?? '', this.options.tweakListOptions),
      defaultResyncPeriod: this.options.customResync?.get(key) ?? this.options.defaultResync ?? 0,
      indexers: { [namespaceIndex]: metaNamespaceIndexFunc },
      clock: this.clock,
      transform: this.options.transform,
      reportError: this.options.reportError,
      reflector: { typeDescription: resourceDescription(gvr), ...this.options.reflector },
    });
    const lister = new GenericLister<KubeObject>(informer.getIndexer(), gvr);
    const generic: GenericInformer = { informer: () => informer, lister: () => lister };
    this.informers.set(key, generic);
    return generic;
  }

  /**
   * Starts every informer requested so far and not yet started, each until `signal` aborts or
   * shutdown() is called. Idempotent; does nothing once shutdown() has been called.
   */
  start(signal: AbortSignal): void {
    if (this.stopAll.signal.aborted) return;
    const combined = AbortSignal.any([signal, this.stopAll.signal]);
    // client-go shares one stop channel among all informers. Here each informer stops on its own
    // signal, which `combined` aborts through one listener: an informer's controller, reflector,
    // watch and sleeps each listen on its signal, and a dozen informers on one signal would pass
    // Node's listener-leak warning (10) although nothing leaks.
    const stops: AbortController[] = [];
    for (const [key, generic] of this.informers) {
      if (this.running.has(key)) continue;
      const stop = new AbortController();
      stops.push(stop);
      const report = this.options.reportError ?? reportToConsole;
      const done = generic
        .informer()
        .run(stop.signal)
        .catch((error: unknown) => report(error, `${key}: informer failed`));
      this.running.set(key, done);
    }
    if (stops.length === 0) return;
    const stopEach = () => {
      for (const stop of stops) stop.abort(combined.reason);
    };
    if (combined.aborted) stopEach();
    else combined.addEventListener('abort', stopEach, { once: true });
  }

  /**
   * Waits until every started informer has synced, or `signal` aborts. Resolves with each started
   * informer's gvrKey and whether it synced; informers never started are left out.
   */
  async waitForCacheSync(signal: AbortSignal): Promise<Map<string, boolean>> {
    const started = [...this.running.keys()];
    const results = await Promise.all(
      started.map((key) => {
        const informer = this.informers.get(key)!.informer();
        return waitForCacheSync(signal, this.clock, () => informer.hasSynced());
      }),
    );
    return new Map(started.map((key, index) => [key, results[index]]));
  }

  /**
   * Stops every informer this factory started and resolves once each has stopped (its handlers'
   * in-flight notifications handled). Afterwards start() does nothing.
   */
  async shutdown(): Promise<void> {
    this.stopAll.abort();
    await Promise.all(this.running.values());
  }
}
