// The live rows' identities (key -> uid and resourceVersion) that a travel from live compares the
// moment with (see liveMoment), kept by the query worker between travels: main sends only the
// batches sent to the renderer since the worker last read them (its IdentityJournal), not a listing
// of every live row at every travel (0.25 s of main's CPU at 150,000 pods, then as long again for
// the worker to read it).
//
// A journal is a sequence of batches, numbered from 0 within its epoch; a batch is triples key, uid,
// resourceVersion (the row as of that batch; a deleted key's uid is deletedUid). A batch not made of
// triples drops its epoch (the travel goes as without the live rows: never a misread row).
import { LiveComparisons } from './live-comparison';
import type { LiveJournal } from './query-protocol';
import { deletedUid } from './query-protocol';

/** Which version of which object a live row is. */
export interface LiveIdentity {
  readonly uid: string;
  readonly resourceVersion: string;
}

export type LiveIdentities = ReadonlyMap<string, LiveIdentity>;

/** Whether `identity` names version `resourceVersion` of object `uid`. */
export function isLive(identity: LiveIdentity | undefined, uid: string, resourceVersion: string): boolean {
  return identity !== undefined && identity.uid === uid && identity.resourceVersion === resourceVersion;
}

/** Epochs kept at once: a window's live subscriptions of a kind (a relist starts another). */
const keptEpochs = 4;

interface Listing {
  /** The number of the journal's next batch: those before it are applied. */
  at: number;
  readonly identities: Map<string, LiveIdentity>;
  /** Its comparisons with the newest states, told of every key a batch changes. */
  readonly comparisons: LiveComparisons;
}

/** A listing's identities as of a journal's batch `at`, and their comparisons kept (see apply). */
export interface AppliedListing {
  readonly identities: LiveIdentities;
  readonly comparisons: LiveComparisons;
  readonly at: number;
}

export class LiveListings {
  /** Epoch -> its listing, oldest first. */
  private readonly listings = new Map<number, Listing>();

  /**
   * The identities of `journal`'s epoch once its batches are applied (those applied already
   * skipped), and the number of its next batch; undefined when the batches do not follow on from
   * what is kept (an epoch this worker never saw from its start, or dropped) or one is not triples.
   * Its comparisons (see LiveComparison) are kept with it: a travel compares only what changed.
   */
  apply(journal: LiveJournal): AppliedListing | undefined {
    let listing = this.listings.get(journal.epoch);
    if (listing === undefined) {
      if (journal.from !== 0) return undefined;
      listing = { at: 0, identities: new Map(), comparisons: new LiveComparisons() };
      this.listings.set(journal.epoch, listing);
      for (const epoch of this.listings.keys()) {
        if (this.listings.size <= keptEpochs) break;
        this.listings.delete(epoch);
      }
    }
    const end = journal.from + journal.batches.length;
    if (journal.from > listing.at || end < listing.at) {
      this.listings.delete(journal.epoch);
      return undefined;
    }
    for (let index = listing.at - journal.from; index < journal.batches.length; index++) {
      if (!applyBatch(listing, journal.batches[index])) {
        this.listings.delete(journal.epoch);
        return undefined;
      }
    }
    listing.at = end;
    return { identities: listing.identities, comparisons: listing.comparisons, at: end };
  }
}

/**
 * The identities a whole listing names (lines "key TAB uid TAB resourceVersion", see
 * listIdentities), or undefined if a line is not of two tabs.
 */
export function identitiesOf(listing: string): LiveIdentities | undefined {
  const identities = new Map<string, LiveIdentity>();
  let start = 0;
  while (start < listing.length) {
    const end = listing.indexOf('\n', start);
    const tab = listing.indexOf('\t', start);
    const second = tab < 0 ? -1 : listing.indexOf('\t', tab + 1);
    if (end < 0 || tab < 0 || tab > end || second < 0 || second > end) return undefined;
    const third = listing.indexOf('\t', second + 1);
    if (third >= 0 && third < end) return undefined;
    identities.set(listing.slice(start, tab), {
      uid: listing.slice(tab + 1, second),
      resourceVersion: listing.slice(second + 1, end),
    });
    start = end + 1;
  }
  return identities;
}

/** Applies a batch's triples to `listing` in order; false when it is not triples. */
function applyBatch(listing: Listing, batch: readonly string[]): boolean {
  if (batch.length % 3 !== 0) return false;
  const { identities, comparisons } = listing;
  const compared = comparisons.size > 0;
  for (let at = 0; at < batch.length; at += 3) {
    const key = batch[at];
    if (compared) comparisons.liveChanged(key);
    const uid = batch[at + 1];
    if (uid === deletedUid) identities.delete(key);
    else identities.set(key, { uid, resourceVersion: batch[at + 2] });
  }
  return true;
}
