// One resource's recent events, as the apiserver's watch cache keeps them: a bounded ring per
// resource, so a busy kind (pods under churn) never pushes a quiet kind's history out. A watch or an
// exact read from a resourceVersion older than its resource's window gets 410, as from the apiserver.
import type { StoredEvent } from './object-store';

export class EventWindow {
  private readonly ring: (StoredEvent | undefined)[];
  private start = 0;
  private length = 0;
  /** Every event of this resource with a resourceVersion greater than this is in the ring. */
  private evictedThrough = 0;

  constructor(capacity: number) {
    this.ring = new Array(Math.max(1, capacity));
  }

  /** The resourceVersion of the newest event this window no longer holds (0: none evicted). */
  get retainedFrom(): number {
    return this.evictedThrough;
  }

  add(event: StoredEvent): void {
    const capacity = this.ring.length;
    if (this.length === capacity) {
      this.evictedThrough = this.at(0).resourceVersion;
      this.ring[this.start] = event;
      this.start = (this.start + 1) % capacity;
    } else {
      this.ring[(this.start + this.length) % capacity] = event;
      this.length++;
    }
  }

  /** The events after `resourceVersion`, oldest first (the caller checks the window reaches back). */
  since(resourceVersion: number): StoredEvent[] {
    const events: StoredEvent[] = [];
    for (let offset = this.length - 1; offset >= 0; offset--) {
      const event = this.at(offset);
      if (event.resourceVersion <= resourceVersion) break;
      events.push(event);
    }
    return events.reverse();
  }

  private at(offset: number): StoredEvent {
    return this.ring[(this.start + offset) % this.ring.length] as StoredEvent;
  }
}
