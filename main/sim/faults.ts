// Fault injection: the failures a real control plane and its network produce, on demand. Tests call
// these methods directly; the CLI and other processes reach them through POST /_sim/faults.
import type { Status } from '../../shared/kube/status';
import { newStatus } from '../../shared/kube/status';
import { badRequest, continueTooOldMessage } from './api-errors';
import type { ObjectStore } from './object-store';
import type { CorruptionMode, WatchHub } from './watch-session';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface RequestFault {
  /** How many matching requests fail; each one consumes one. */
  count: number;
  code: 410 | 429 | 500;
  /** Only requests with this verb (any verb if absent). */
  verb?: Verb;
  /** Only requests whose path contains this text, e.g. "/pods" (any path if absent). */
  path?: string;
  /** For 429: the Retry-After header and details.retryAfterSeconds (default 1). */
  retryAfterSeconds?: number;
}

/** The JSON bodies POST /_sim/faults accepts, one action each. */
export type FaultCommand =
  | ({ action: 'failNext' } & RequestFault)
  | { action: 'dropWatches' }
  | { action: 'stallWatches'; seconds: number }
  | { action: 'corruptWatches'; mode: CorruptionMode }
  | { action: 'expireContinueTokens' }
  | { action: 'restartCompacted' }
  | { action: 'blackholeConnections' }
  | { action: 'clear' };

/** Faults below HTTP, when the cluster runs behind its fault proxy (see fault-proxy.ts). */
export interface ConnectionFaults {
  /** Every connection open now goes silent both ways, for ever, after `delayMs`; returns how many. */
  blackholeConnections(delayMs?: number): number;
}

export class FaultInjector {
  private requestFaults: RequestFault[] = [];
  private continueFloor = 0;

  constructor(
    private readonly store: ObjectStore,
    private readonly watches: WatchHub,
    private readonly connections?: ConnectionFaults,
  ) {}

  /** Answers the next `count` requests matching verb and path with the given error status. */
  failNext(fault: RequestFault): void {
    this.requestFaults.push({ ...fault });
  }

  /** Cuts every open watch connection; returns how many were cut. */
  dropWatches(): number {
    const sessions = this.watches.all();
    for (const session of sessions) session.drop();
    return sessions.length;
  }

  /** Open watches send no bytes for `seconds` (events are held, then delivered). */
  stallWatches(seconds: number): number {
    const sessions = this.watches.all();
    for (const session of sessions) session.stall(seconds * 1000);
    return sessions.length;
  }

  /** The next event on each open watch comes with a malformed line, or truncated and the connection closed. */
  corruptWatches(mode: CorruptionMode): number {
    const sessions = this.watches.all();
    for (const session of sessions) session.corruptNext(mode);
    return sessions.length;
  }

  /** Every continue token issued so far is answered with 410 Expired. */
  expireContinueTokens(): void {
    this.continueFloor = this.store.resourceVersion + 1;
  }

  /** An apiserver restart that lost its watch cache: all watches close, history is compacted. */
  restartCompacted(): void {
    this.dropWatches();
    this.store.compact();
  }

  /**
   * Every open connection (watches, and the HTTP/2 connection carrying them) hangs for ever: no FIN,
   * no byte either way, PINGs unanswered, as behind a NAT that dropped them. New connections work.
   * Needs the cluster started with faultProxy: true. With `delayMs`, the connections open now hang
   * that much later (so that an HTTP reply can leave on one of them first).
   */
  blackholeConnections(delayMs = 0): number {
    return this.requireProxy().blackholeConnections(delayMs);
  }

  private requireProxy(): ConnectionFaults {
    if (!this.connections)
      throw badRequest(
        'blackholeConnections needs the cluster started with its fault proxy (faultProxy: true)',
      );
    return this.connections;
  }

  clear(): void {
    this.requestFaults = [];
    this.continueFloor = 0;
  }

  pending(): RequestFault[] {
    return this.requestFaults.map((fault) => ({ ...fault }));
  }

  run(command: FaultCommand): { affected?: number } {
    switch (command.action) {
      case 'failNext': {
        const { action: _action, ...fault } = command;
        if (![410, 429, 500].includes(fault.code) || !(fault.count > 0))
          throw new Error('failNext needs count > 0 and code 410, 429 or 500');
        this.failNext(fault);
        return {};
      }
      case 'dropWatches':
        return { affected: this.dropWatches() };
      case 'stallWatches':
        return { affected: this.stallWatches(command.seconds) };
      case 'corruptWatches':
        return { affected: this.corruptWatches(command.mode) };
      case 'expireContinueTokens':
        this.expireContinueTokens();
        return {};
      case 'restartCompacted':
        this.restartCompacted();
        return {};
      case 'blackholeConnections':
        return { affected: this.blackholeConnections() };
      case 'clear':
        this.clear();
        return {};
      default:
        throw new Error(`unknown fault action ${JSON.stringify((command as { action?: unknown }).action)}`);
    }
  }

  /** Whether a continue token minted at `resourceVersion` has been expired by expireContinueTokens. */
  continueExpired(resourceVersion: number): boolean {
    return resourceVersion < this.continueFloor;
  }

  /** The Status to answer this request with, consuming one fault, or undefined to serve it normally. */
  take(verb: Verb, path: string): Status | undefined {
    const index = this.requestFaults.findIndex(
      (fault) => (!fault.verb || fault.verb === verb) && (!fault.path || path.includes(fault.path)),
    );
    if (index < 0) return undefined;
    const fault = this.requestFaults[index];
    if (--fault.count <= 0) this.requestFaults.splice(index, 1);
    switch (fault.code) {
      case 410:
        return newStatus(
          410,
          'Expired',
          verb === 'watch' ? 'too old resource version (injected fault)' : continueTooOldMessage,
        );
      case 429:
        return newStatus(429, 'TooManyRequests', 'Too many requests, please try again later.', {
          retryAfterSeconds: fault.retryAfterSeconds ?? 1,
        });
      default:
        return newStatus(500, 'InternalError', 'Internal error occurred: injected fault');
    }
  }
}
