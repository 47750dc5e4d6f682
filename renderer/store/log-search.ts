// Search in a log view: plain text (case-insensitive unless the query has a capital, as in less and
// k9s) or a regular expression, matched against the text without its colour escapes. The matching
// lines are kept as buffer positions (see log-buffer.ts) and brought up to date incrementally: when
// lines were only appended, just the new tail is scanned and the dropped head forgotten, so following a
// busy log with a search open costs the new lines only.
import type { LogBuffer } from './log-buffer';

export interface LogQuery {
  text: string;
  regex: boolean;
}

export type CompiledQuery = { ok: true; pattern: RegExp } | { ok: false; error: string };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The query as a global RegExp, or why it is not one. An empty query matches nothing. */
export function compileQuery(query: LogQuery): CompiledQuery {
  const flags = /[A-Z]/.test(query.text) ? 'g' : 'gi';
  try {
    return { ok: true, pattern: new RegExp(query.regex ? query.text : escapeRegExp(query.text), flags) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** [start, end) of every non-empty match in `text`. */
export function matchRanges(text: string, pattern: RegExp): [number, number][] {
  const ranges: [number, number][] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

/** True when the pattern matches something (not just the empty string) in `text`. */
export function lineMatches(text: string, pattern: RegExp): boolean {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0].length > 0) return true;
    pattern.lastIndex++;
  }
  return false;
}

/** The buffer positions of the lines a pattern matches, kept current as the buffer changes. */
export class LogMatches {
  private positions: number[] = [];
  private start = 0;
  private scannedTo = 0;
  private layout = -1;
  private revision = -1;

  constructor(
    private readonly buffer: LogBuffer,
    readonly pattern: RegExp,
    /** The text a line is matched on (its text without colour escapes). */
    private readonly plain: (text: string) => string,
  ) {}

  /** Brings the matches up to date; cheap when nothing changed. */
  update(): void {
    const { buffer } = this;
    if (buffer.revision === this.revision) return;
    this.revision = buffer.revision;
    if (buffer.layout !== this.layout) {
      this.layout = buffer.layout;
      this.positions = [];
      this.start = 0;
      this.scannedTo = buffer.dropped;
    }
    const first = buffer.dropped;
    while (this.start < this.positions.length && this.positions[this.start] < first) this.start++;
    if (this.start > 4096 && this.start * 2 > this.positions.length) {
      this.positions = this.positions.slice(this.start);
      this.start = 0;
    }
    const end = first + buffer.length;
    for (let position = Math.max(this.scannedTo, first); position < end; position++)
      if (lineMatches(this.plain(buffer.text(position - first)), this.pattern)) this.positions.push(position);
    this.scannedTo = end;
  }

  get count(): number {
    return this.positions.length - this.start;
  }

  /** The buffer index of the n-th match (0 = oldest). */
  index(n: number): number {
    return this.positions[this.start + n] - this.buffer.dropped;
  }

  /** The match at or after buffer index `from` (forward) or before it (backward), wrapping around. */
  next(from: number, forward: boolean): number | undefined {
    if (this.count === 0) return undefined;
    const target = from + this.buffer.dropped;
    let low = this.start;
    let high = this.positions.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.positions[middle] < target) low = middle + 1;
      else high = middle;
    }
    // low: the first match at or after `from`.
    if (forward) return (low < this.positions.length ? low : this.start) - this.start;
    return (low > this.start ? low - 1 : this.positions.length - 1) - this.start;
  }
}
