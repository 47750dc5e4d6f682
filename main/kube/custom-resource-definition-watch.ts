// Follows customresourcedefinitions so Discovery can rerun when one is created, changed (Established,
// new versions) or deleted, and custom resources get their printer columns. A minimal reflector: it
// reports "something changed", and keeps of each CRD only what its printers need
// (CustomResourcePrinters), so no object cache. Full objects, not metadata: the columns are in spec.
import type { Clock } from '../cache/clock';
import type { ListerWatcher } from '../cache/lister-watcher';
import type { KubeObject } from '../../shared/kube/object';
import { isNotFound, isResourceExpired } from '../../shared/kube/status';
import { ForbiddenError, UnauthorizedError } from './errors';
import { CustomResourcePrinters, trimDefinition } from './custom-resource-printers';
import { httpListerWatcher } from './lister-watcher';
import type { RestClient } from './rest-client';

const customResourceDefinitions = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
};
const initialBackoffMs = 1000;

export interface CustomResourceDefinitionWatchOptions {
  clock: Clock;
  /** Ends list() and run(). */
  signal: AbortSignal;
  /** Retries after failures back off from 1 s, doubling up to this (default 30 s). */
  maxBackoffMs?: number;
}

export class CustomResourceDefinitionWatch {
  /** Why it gave up (no permission, or CRDs not served); undefined while it can run. */
  error: Error | undefined;
  /** The printer columns of every CRD, current as of the last event. */
  readonly printers = new CustomResourcePrinters();
  private readonly listerWatcher: ListerWatcher<KubeObject>;
  /** Where the watch resumes; "" means list first. */
  private resourceVersion = '';

  constructor(
    client: RestClient,
    /** Called on every CRD change and after every relist (changes may have been missed). */
    private readonly onChange: () => void,
    private readonly options: CustomResourceDefinitionWatchOptions,
  ) {
    this.listerWatcher = httpListerWatcher(client, customResourceDefinitions, '', undefined, {
      clock: options.clock,
    });
  }

  /**
   * The initial LIST, so that a discovery run after it misses nothing the watch will not report.
   * False when CRDs cannot be followed at all; another failure is left for run() to retry.
   */
  async list(): Promise<boolean> {
    try {
      await this.relist(this.options.signal);
      return true;
    } catch (error) {
      return !this.givesUp(error);
    }
  }

  /** Watches (relisting when needed) until the signal aborts or following CRDs is impossible. */
  async run(): Promise<void> {
    const { clock, signal } = this.options;
    const maxBackoffMs = this.options.maxBackoffMs ?? 30_000;
    let backoffMs = initialBackoffMs;
    while (!signal.aborted) {
      try {
        if (this.resourceVersion === '') {
          await this.relist(signal);
          this.onChange();
        }
        const watcher = await this.listerWatcher.watch(
          { resourceVersion: this.resourceVersion, allowWatchBookmarks: true, timeoutSeconds: 300 },
          signal,
        );
        const startedAt = clock.now();
        let events = 0;
        for await (const event of watcher) {
          events++;
          this.resourceVersion = event.object.metadata.resourceVersion ?? this.resourceVersion;
          if (event.type === 'DELETED') this.printers.delete(event.object);
          else if (event.type === 'ADDED' || event.type === 'MODIFIED') this.printers.set(event.object);
          if (event.type !== 'BOOKMARK') this.onChange();
          backoffMs = initialBackoffMs;
        }
        // client-go's VeryShortWatchError: a server closing watches at once must not cause a tight loop.
        if (events === 0 && clock.now() - startedAt < 1000) throw new Error('watch of CRDs closed at once');
      } catch (error) {
        if (signal.aborted || this.givesUp(error)) return;
        if (isResourceExpired(error)) this.resourceVersion = '';
        try {
          await clock.sleep(backoffMs, signal);
        } catch {
          return;
        }
        backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
      }
    }
  }

  /** Lists every CRD (trimmed as each arrives, so the schemas are never all held at once). */
  private async relist(signal: AbortSignal): Promise<void> {
    const list = await this.listerWatcher.list({ resourceVersion: '0' }, signal, trimDefinition);
    this.printers.replace(list.items);
    this.resourceVersion = list.metadata.resourceVersion ?? '';
  }

  /** No permission, or no CRDs served: retrying would only load the server. */
  private givesUp(error: unknown): boolean {
    if (!(error instanceof ForbiddenError || error instanceof UnauthorizedError || isNotFound(error)))
      return false;
    this.error = error as Error;
    return true;
  }
}
