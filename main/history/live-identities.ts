// The live rows' identities (key -> "uid TAB resourceVersion") that a travel from live compares the
// moment with (see liveMoment), kept by the query worker between travels: main sends only the lines
// of the batches sent to the renderer since the worker last read them (its IdentityJournal), not a
// listing of every live row at every travel (0.25 s of main's CPU at 150,000 pods, then as long again
// for the worker to read it).
//
// A journal is a sequence of texts, numbered from 0 within its epoch; a text is lines "key TAB uid TAB
// resourceVersion" (the row as of that batch) or "key" alone (deleted). Kubernetes names, uids and
// resourceVersions hold neither a tab nor a line break: a line of one tab or three is malformed, and
// the epoch is then dropped (the travel goes as without the live rows: never a misread row).
import type { LiveJournal } from './query-protocol';

/** key -> "uid TAB resourceVersion" (see isIdentity). */
export type LiveIdentities = ReadonlyMap<string, string>;

/** Epochs kept at once: a window's live subscriptions of a kind (a relist starts another). */
const keptEpochs = 4;

interface Listing {
  /** The number of the journal's next text: those before it are applied. */
  at: number;
  readonly identities: Map<string, string>;
}

export class LiveListings {
  /** Epoch -> its listing, oldest first. */
  private readonly listings = new Map<number, Listing>();

  /**
   * The identities of `journal`'s epoch once its texts are applied (those applied already skipped),
   * and the number of its next text; undefined when the texts do not follow on from what is kept
   * (an epoch this worker never saw from its start, or dropped) or a line is malformed.
   */
  apply(journal: LiveJournal): { readonly identities: LiveIdentities; readonly at: number } | undefined {
    let listing = this.listings.get(journal.epoch);
    if (listing === undefined) {
      if (journal.from !== 0) return undefined;
      listing = { at: 0, identities: new Map() };
      this.listings.set(journal.epoch, listing);
      for (const epoch of this.listings.keys()) {
        if (this.listings.size <= keptEpochs) break;
        this.listings.delete(epoch);
      }
    }
    const end = journal.from + journal.texts.length;
    if (journal.from > listing.at || end < listing.at) {
      this.listings.delete(journal.epoch);
      return undefined;
    }
    for (let index = listing.at - journal.from; index < journal.texts.length; index++) {
      if (!applyLines(listing.identities, journal.texts[index])) {
        this.listings.delete(journal.epoch);
        return undefined;
      }
    }
    listing.at = end;
    return { identities: listing.identities, at: end };
  }
}

/** The identities a whole listing names (see listIdentities), or undefined if a line is malformed. */
export function identitiesOf(listing: string): LiveIdentities | undefined {
  const identities = new Map<string, string>();
  return applyLines(identities, listing) ? identities : undefined;
}

/** Applies a text's lines to `identities` in order; false at a malformed line. */
function applyLines(identities: Map<string, string>, text: string): boolean {
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    if (end < 0) return false;
    const tab = text.indexOf('\t', start);
    if (tab < 0 || tab > end) {
      identities.delete(text.slice(start, end));
      start = end + 1;
      continue;
    }
    const second = text.indexOf('\t', tab + 1);
    if (second < 0 || second > end) return false;
    const third = text.indexOf('\t', second + 1);
    if (third >= 0 && third < end) return false;
    identities.set(text.slice(start, tab), text.slice(tab + 1, end));
    start = end + 1;
  }
  return true;
}
