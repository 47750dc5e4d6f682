// Which version of which object each row a live subscription sent is, kept as a journal of the
// batches sent (see SentRows), for the history query worker: a travel from live sends only the batches
// the worker has not read yet, and the worker keeps the live rows' identities between travels (see
// LiveListings). Listing every live row at each travel instead (listIdentities) was 0.25 s of main's
// CPU at 150,000 pods, and the 11 MB text it made as long again to post to the worker. A batch is
// kept as its rows' key, uid and resourceVersion (the row's own strings: a few pushes per row, not
// a line of text each, which cost 0.3 s of main while 150,000 rows listed), and not the rows.
//
// The journal's batches are numbered from 0 within an epoch; an epoch starts with a snapshot (its
// rows are the first batches) or, once the journal was dropped, with a listing of every row that the
// travel sends itself (restart, listJournal). Batches the worker said it read are let go
// (acknowledge); a journal whose batches outgrow twice the rows it lists is dropped, so it never
// holds more than two listings' strings: the next travel lists the rows then.
import type { Row } from '../../shared/protocol/row';
import type { LiveJournal } from '../history/query-protocol';
import { deletedUid } from '../history/query-protocol';
import type { BaseRows } from './sent-rows';

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
  /** The number of `batches[0]`. */
  private start = 0;
  private batches: string[][] = [];
  private lines = 0;

  /** Starts an epoch at no rows (a snapshot's first batch). */
  begin(): void {
    this.startEpoch(0);
  }

  /**
   * Starts an epoch whose batch 0 is a listing of every row as they are now, which the caller sends
   * itself (see listJournal); the batches recorded from now on follow it.
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
    const batch: string[] = [];
    for (const key of deletes) batch.push(key, deletedUid, '');
    for (const row of upserts) batch.push(row.key, row.uid, row.resourceVersion);
    this.batches.push(batch);
    this.lines += upserts.length + deletes.length;
    if (this.lines > 2 * rowCount + spareLines) this.drop();
  }

  /**
   * The batches not yet read by the worker, up to now, or with `maxLines` the first of them up to
   * that many lines (at least one batch: a piece fed ahead of a travel, see LiveJournalFeed);
   * undefined when there is no journal.
   */
  unread(maxLines = Infinity): LiveJournal | undefined {
    if (this.epoch === 0) return undefined;
    let count = 0;
    let lines = 0;
    while (count < this.batches.length && (count === 0 || lines + this.batches[count].length / 3 <= maxLines))
      lines += this.batches[count++].length / 3;
    return { epoch: this.epoch, from: this.start, batches: this.batches.slice(0, count) };
  }

  /** The number of the batch after the last recorded (of the current epoch). */
  get end(): number {
    return this.start + this.batches.length;
  }

  /** The worker read epoch `epoch`'s batches before number `at`: they need not be kept. */
  acknowledge(epoch: number, at: number): void {
    if (epoch !== this.epoch || at <= this.start) return;
    const read = Math.min(at - this.start, this.batches.length);
    for (let index = 0; index < read; index++) this.lines -= this.batches[index].length / 3;
    this.batches.splice(0, read);
    this.start += read;
  }

  /**
   * No journal from now on, until the next begin or restart (outgrown, or the worker could not read
   * epoch `epoch`: not one started since).
   */
  drop(epoch = this.epoch): void {
    if (epoch !== this.epoch) return;
    this.epoch = 0;
    this.batches = [];
    this.lines = 0;
    this.start = 0;
  }

  private startEpoch(start: number): number {
    this.epoch = nextEpoch();
    this.start = start;
    this.batches = [];
    this.lines = 0;
    return this.epoch;
  }
}

/** Rows listed per task: a few ms of main. */
const rowsPerTask = 20_000;

/**
 * Lists `base`'s rows as a journal's batch (see LiveJournal), a slice per `nextTask`, with its keys
 * in order (the renderer's before the moment); undefined when `current` says the travel was
 * superseded meanwhile. The base's rows stay as of its batch however long this takes (see SentRows).
 */
export async function listJournal(
  base: BaseRows,
  nextTask: () => Promise<void>,
  current: () => boolean,
): Promise<{ readonly batch: string[]; readonly keys: string[] } | undefined> {
  const batch: string[] = [];
  const keys: string[] = [];
  for (const key of base.keys()) {
    const { uid, resourceVersion } = base.get(key)!;
    batch.push(key, uid, resourceVersion);
    keys.push(key);
    if (keys.length % rowsPerTask === 0) {
      await nextTask();
      if (!current()) return undefined;
    }
  }
  return { batch, keys };
}
