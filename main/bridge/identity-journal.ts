// Which version of which object each row a live subscription sent is, kept as a journal of the
// batches sent (see SentRows), for the history query worker: a travel from live sends only the texts
// the worker has not read yet, and the worker keeps the live rows' identities between travels (see
// LiveListings). Listing every live row at each travel instead (listIdentities) was 0.25 s of main's
// CPU at 150,000 pods, and the 11 MB text it made as long again to post to the worker.
//
// The journal's texts are numbered from 0 within an epoch; an epoch starts with a snapshot (its rows
// are the first texts) or, once the journal was dropped, with a listing of every row that the travel
// sends itself (restart). Texts the worker said it read are let go (acknowledge); a journal whose
// texts outgrow twice the rows it lists is dropped, so it never costs more than two listings of
// memory: the next travel lists the rows then.
import type { Row } from '../../shared/protocol/row';
import type { LiveJournal } from '../history/query-protocol';

/** Journal lines kept beyond twice the rows listed before it is dropped (small subscriptions). */
const spareLines = 20_000;

let lastEpoch = 0;

/** A fresh epoch number, never used before in this process (epochs of every journal share a worker). */
export function nextEpoch(): number {
  return ++lastEpoch;
}

export class IdentityJournal {
  /** 0 while there is no journal (none started, or dropped). */
  private epoch = 0;
  /** The number of `texts[0]`. */
  private start = 0;
  private texts: string[] = [];
  /** Lines of each text of `texts`. */
  private counts: number[] = [];
  private lines = 0;

  /** Starts an epoch at no rows (a snapshot's first batch). */
  begin(): void {
    this.startEpoch(0);
  }

  /**
   * Starts an epoch whose text 0 is a listing of every row as they are now, which the caller sends
   * itself (see listIdentities); the texts recorded from now on follow it.
   */
  restart(): number {
    return this.startEpoch(1);
  }

  /**
   * Records a batch applied to rows now `rowCount` many: its deletes, then its upserts' identities,
   * in the order SentRows applies them.
   */
  record(upserts: readonly Row[], deletes: readonly string[], rowCount: number): void {
    if (this.epoch === 0 || upserts.length + deletes.length === 0) return;
    let text = '';
    for (const key of deletes) text += `${key}\n`;
    for (const row of upserts) text += `${row.key}\t${row.uid}\t${row.resourceVersion}\n`;
    this.texts.push(text);
    this.counts.push(upserts.length + deletes.length);
    this.lines += upserts.length + deletes.length;
    if (this.lines > 2 * rowCount + spareLines) this.drop();
  }

  /** The texts not yet read by the worker, up to now; undefined when there is no journal. */
  unread(): LiveJournal | undefined {
    if (this.epoch === 0) return undefined;
    return { epoch: this.epoch, from: this.start, texts: this.texts.slice() };
  }

  /** The worker read epoch `epoch`'s texts before number `at`: they need not be kept. */
  acknowledge(epoch: number, at: number): void {
    if (epoch !== this.epoch || at <= this.start) return;
    const read = Math.min(at - this.start, this.texts.length);
    for (let index = 0; index < read; index++) this.lines -= this.counts[index];
    this.texts.splice(0, read);
    this.counts.splice(0, read);
    this.start += read;
  }

  /**
   * No journal from now on, until the next begin or restart (outgrown, or the worker could not read
   * epoch `epoch`: not one started since).
   */
  drop(epoch = this.epoch): void {
    if (epoch !== this.epoch) return;
    this.epoch = 0;
    this.texts = [];
    this.counts = [];
    this.lines = 0;
    this.start = 0;
  }

  private startEpoch(start: number): number {
    this.epoch = nextEpoch();
    this.start = start;
    this.texts = [];
    this.counts = [];
    this.lines = 0;
    return this.epoch;
  }
}
