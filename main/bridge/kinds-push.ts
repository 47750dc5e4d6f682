// The kinds list a session's renderers show (served kinds with their counts, why the forbidden ones
// are, the namespaces tried): sent when it changed, and looked at again every intervalMs while any
// renderer is connected, so counts follow the feeds without a message per change.
import type { Clock, Timer } from '../cache/clock';
import type { NamespaceChoices, ServedKind, ServerMessage } from '../../shared/protocol/server-messages';

export interface KindsPushOptions {
  clock: Clock;
  intervalMs: number;
  kinds: () => ServedKind[];
  namespaceChoices: () => NamespaceChoices | undefined;
  /** How many renderers are connected. */
  connected: () => number;
  /** Sends to every connected renderer. */
  send: (message: ServerMessage) => void;
}

export class KindsPush {
  private last = '';
  private timer: Timer | undefined;
  private stopped = false;

  constructor(private readonly options: KindsPushOptions) {}

  /** Sends the kinds list to every connection if it changed since the last push (or when forced). */
  push(force = false): void {
    const kinds = this.options.kinds();
    const namespaces = this.options.namespaceChoices();
    const serialized = JSON.stringify([kinds, namespaces]);
    if (!force && serialized === this.last) return;
    this.last = serialized;
    this.options.send({ type: 'kinds', kinds, ...(namespaces ? { namespaces } : {}) });
  }

  /** Looks again every intervalMs until no renderer is connected (the next one to attach restarts it). */
  schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined;
      if (this.options.connected() === 0) return;
      this.push();
      this.schedule();
    }, this.options.intervalMs);
  }

  stop(): void {
    this.stopped = true;
    this.timer?.stop();
    this.timer = undefined;
  }
}
