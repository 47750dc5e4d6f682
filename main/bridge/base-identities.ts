// Which version of which object each live row is (its uid and resourceVersion), as one text that main
// sends to the history query worker for a travel from live: the worker then finds, off main, the rows
// of the moment that differ from the live rows the renderer holds (see liveMoment), and only those
// cross back. Comparing every row of the moment on main (MomentDifference) meant 150,000 rows of JSON
// crossing threads and being scanned there: 0.4-0.5 s of main's CPU at 150,000 pods.
//
// The text is a line per row, "key TAB uid TAB resourceVersion": Kubernetes names, uids and
// resourceVersions hold neither a tab nor a line break. A field that did would make a line of other
// than two tabs, which the worker finds as it reads the listing: it then answers as without one (the
// moment whole), never misreads it. (Checking each field here cost main a third of the listing.)
import type { BaseRows } from './sent-rows';

/** Rows listed per task: a few ms of main. */
const rowsPerTask = 10_000;

export interface BaseIdentities {
  /** The listing (see above). */
  readonly text: string;
  /** Every key of the base, in the listing's order: the keys the renderer holds before the moment. */
  readonly keys: string[];
}

/**
 * Lists `base`'s rows a slice per `nextTask`, or undefined when `current` says the travel was
 * superseded meanwhile. The base's rows stay as of its batch however long this takes (see SentRows).
 */
export async function listIdentities(
  base: BaseRows,
  nextTask: () => Promise<void>,
  current: () => boolean,
  perTask = rowsPerTask,
): Promise<BaseIdentities | undefined> {
  const keys: string[] = [];
  let text = '';
  let listed = 0;
  for (const key of base.keys()) {
    const { uid, resourceVersion } = base.get(key)!;
    text += `${key}\t${uid}\t${resourceVersion}\n`;
    keys.push(key);
    if (++listed % perTask === 0) {
      await nextTask();
      if (!current()) return undefined;
    }
  }
  return { text, keys };
}

/** Whether `identity` (as IdentityLines.identity gives it) names version `resourceVersion` of object `uid`. */
export function isIdentity(identity: string | undefined, uid: string, resourceVersion: string): boolean {
  return (
    identity !== undefined &&
    identity.length === uid.length + 1 + resourceVersion.length &&
    identity.charCodeAt(uid.length) === tab &&
    identity.startsWith(uid) &&
    identity.endsWith(resourceVersion)
  );
}

const tab = 0x09;

/**
 * The listing's lines read in place, one at a time (see liveMoment): a line's key is sliced, its
 * identity compared where it lies, so that a listing of 150,000 rows makes no map and no identity
 * string (reading it into a map was 0.15 s of the worker).
 */
export class IdentityLines {
  /** The current line's key. */
  key = '';
  private at = 0;
  private tab = 0;
  private second = 0;
  private end = 0;

  constructor(private readonly text: string) {}

  /** How many lines the listing holds. */
  count(): number {
    let lines = 0;
    for (let end = this.text.indexOf('\n'); end >= 0; end = this.text.indexOf('\n', end + 1)) lines++;
    return lines;
  }

  /** Moves to the next line: false after the last, undefined on a line of other than two tabs. */
  next(): boolean | undefined {
    const text = this.text;
    const start = this.at;
    if (start >= text.length) return false;
    const end = text.indexOf('\n', start);
    const tab = text.indexOf('\t', start);
    const second = tab < 0 ? -1 : text.indexOf('\t', tab + 1);
    if (end < 0 || tab < 0 || tab > end || second < 0 || second > end) return undefined;
    const third = text.indexOf('\t', second + 1);
    if (third >= 0 && third < end) return undefined;
    this.key = text.slice(start, tab);
    this.tab = tab;
    this.second = second;
    this.end = end;
    this.at = end + 1;
    return true;
  }

  /** Whether the current line names version `resourceVersion` of object `uid`. */
  is(uid: string, resourceVersion: string): boolean {
    return (
      this.second - this.tab - 1 === uid.length &&
      this.end - this.second - 1 === resourceVersion.length &&
      this.text.startsWith(uid, this.tab + 1) &&
      this.text.startsWith(resourceVersion, this.second + 1)
    );
  }

  /** The current line's identity: "uid TAB resourceVersion". */
  identity(): string {
    return this.text.slice(this.tab + 1, this.end);
  }
}
