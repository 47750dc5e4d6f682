// Who still holds a query's answer: leases on key arrays, so that the name order may write its next
// keys into an array its readers have let go of, rather than into a new one at every change.
//
// Under churn at 150,000 pods the table's live re-query found keys come and go every time, and each
// time the name order's keys were a new 150,000-element array (600 KB with compressed pointers): 58%
// of the bytes the idle page allocated, and large objects that each scavenge found alive moved to the
// old generation, whose mark-compacts are the page's long tasks. An answer is read after the task
// that made it, though: the table renders its keys at every frame until the next answer replaces it,
// and the narrowing query filters the last answer again. So an array may be written over only once
// every holder has said it is done with it:
//
// - A holder that keeps an answer past the task that made it (the table's shown answer, the narrowing
//   query's last) takes a lease when it starts keeping it and returns it when it stops.
// - An array is free only when it was leased at least once and every lease was returned. An array
//   nobody ever leased is never free: a reader that does not take leases (a test, a travel's snapshot
//   merging a base's order) may hold it for as long as it likes.
// - The name order writes only into arrays it made and has since replaced (never the one it hands
//   out now), so a holder that reads the current order needs no lease to read it within its task.
const leases = new WeakMap<readonly string[], number>();

/** Takes a lease on `keys`: the name order will not write into it until it is returned. */
export function leaseKeys(keys: readonly string[]): void {
  leases.set(keys, (leases.get(keys) ?? 0) + 1);
}

/**
 * Returns a lease taken by leaseKeys (one per lease taken). A return with no lease out is ignored
 * rather than thrown in a view's cleanup: the count never goes below zero, so the array stays free.
 */
export function returnKeys(keys: readonly string[]): void {
  const held = leases.get(keys);
  if (held !== undefined && held > 0) leases.set(keys, held - 1);
}

/** True when `keys` was leased and every lease on it has been returned: nobody reads it any more. */
export function keysReturned(keys: readonly string[]): boolean {
  return leases.get(keys) === 0;
}

/**
 * How many replaced key arrays an order keeps to write into once their leases are returned: the shown
 * answer's and the one before it, with room for a first answer a view keeps while it shows the kind.
 */
const maxRetired = 3;

/**
 * Key arrays an order handed out and has since replaced, oldest first: its next change writes its keys
 * into one whose leases were all returned (keysReturned) rather than into a new array. At 150,000 rows
 * a new array at each live re-query was most of the bytes the page allocated under churn, and the one
 * alive at each scavenge went to the old generation.
 */
export class RetiredKeys {
  private readonly arrays: string[][] = [];

  /** A retired array nobody holds any more, taken out of the pool; undefined when none is free. */
  takeReturned(): string[] | undefined {
    const index = this.arrays.findIndex(keysReturned);
    return index < 0 ? undefined : this.arrays.splice(index, 1)[0];
  }

  /** Keeps `keys`, just replaced, to write into once its leases are returned; forgets the oldest. */
  retire(keys: string[]): void {
    if (keys.length === 0) return;
    this.arrays.push(keys);
    if (this.arrays.length > maxRetired) this.arrays.shift();
  }
}
