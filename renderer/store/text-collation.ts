// The table's text order (Intl.Collator, numeric, base sensitivity) answered without the collator for
// the text Kubernetes names are made of. A collator comparison cost 100-300 ns, and the name order
// makes millions of them: placing a 150,000-pod listing's arrivals, sorting a travel's moment, merging
// its chunks (page-ingest.ts: a 150,000-name sort 311 ms of CPU). Most names share a long prefix
// (`web-7d9f8b6c5-...`), which a loop over char codes passes in a few nanoseconds.
//
// Exact, not close: every answer is the collator's. The loop knows the collation elements of
// [A-Za-z0-9.-] only (root collation, as the browser's and Node's ICU have it): each such character is
// one primary weight, letters case-blind (base sensitivity), '-' before '.' before digits before
// letters, and a run of digits one number (leading zeros do not count). Any other character, or a
// digit run too long to be one number here, hands the whole comparison to the collator: a combining
// mark, say, may change what the character before it weighs. A decision is also taken only when the
// character after each decided one is of the known set (or the end), for the same reason.

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** What a comparison outside the known characters falls back to: the collator's answer. */
export type TextComparison = (left: string, right: string) => number;

const collatorCompare: TextComparison = (left, right) => collator.compare(left, right);

/** Digit runs longer than this go to the collator (ICU splits very long runs into numbers of its own). */
const longestRun = 100;

/** The weight of every digit: a digit run is one number, weighed as a whole (see compareText). */
const digit = 3;

/** Primary weights of the known characters by char code, in their order; -1 for any other. */
const weights = new Int16Array(128).fill(-1);
weights[45] = 1; // '-'
weights[46] = 2; // '.'
for (let code = 48; code <= 57; code++) weights[code] = digit;
for (let code = 97; code <= 122; code++) weights[code] = code;
for (let code = 65; code <= 90; code++) weights[code] = code + 32; // case-blind

/** A character's primary weight among the known ones; -1 for any other character. */
function weight(code: number): number {
  return code < 128 ? weights[code] : -1;
}

/** True when the character at `index` (or the end) cannot change how the one before it weighs. */
function settles(text: string, index: number): boolean {
  return index >= text.length || weight(text.charCodeAt(index)) >= 0;
}

/** The end of the digit run starting at `index`. */
function runEnd(text: string, index: number): number {
  let end = index;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    if (code < 48 || code > 57) break;
    end += 1;
  }
  return end;
}

/** The first index of [from, end) that is not '0' (end when all are). */
function skipZeros(text: string, from: number, end: number): number {
  let index = from;
  while (index < end && text.charCodeAt(index) === 48) index += 1;
  return index;
}

/**
 * -1, 0 or 1 as `left` sorts before, with or after `right` under the collator (numeric, base
 * sensitivity); `fallback` answers when either holds a character outside [A-Za-z0-9.-].
 */
export function compareText(left: string, right: string, fallback: TextComparison = collatorCompare): number {
  // The common prefix, char by char: the same characters weigh the same, digits included, so only a
  // digit run that goes on past it is read again, as a number, from its start.
  const shorter = Math.min(left.length, right.length);
  let common = 0;
  for (; common < shorter; common++) {
    const code = left.charCodeAt(common);
    if (code !== right.charCodeAt(common)) break;
    if (weight(code) < 0) return sign(fallback(left, right));
  }
  while (common > 0 && weight(left.charCodeAt(common - 1)) === digit) common -= 1;
  return compareFrom(left, right, common, fallback);
}

/** compareText for texts whose first `start` characters weigh the same and end no digit run. */
function compareFrom(left: string, right: string, start: number, fallback: TextComparison): number {
  let at = start;
  let other = start;
  for (;;) {
    const leftEnded = at >= left.length;
    const rightEnded = other >= right.length;
    if (leftEnded || rightEnded) {
      if (leftEnded && rightEnded) return 0;
      // The longer one goes after, unless what follows the common part is ignorable (unknown here).
      if (leftEnded) return settles(right, other) ? -1 : sign(fallback(left, right));
      return settles(left, at) ? 1 : sign(fallback(left, right));
    }
    const leftCode = left.charCodeAt(at);
    const rightCode = right.charCodeAt(other);
    if (leftCode === rightCode && (leftCode < 48 || leftCode > 57)) {
      if (weight(leftCode) < 0) return sign(fallback(left, right));
      at += 1;
      other += 1;
      continue;
    }
    const leftWeight = weight(leftCode);
    const rightWeight = weight(rightCode);
    if (leftWeight < 0 || rightWeight < 0) return sign(fallback(left, right));
    if (leftWeight === digit && rightWeight === digit) {
      // Two numbers: by their digits' count once leading zeros are gone, then digit by digit.
      const leftEnd = runEnd(left, at);
      const rightEnd = runEnd(right, other);
      if (leftEnd - at > longestRun || rightEnd - other > longestRun) return sign(fallback(left, right));
      const leftDigits = skipZeros(left, at, leftEnd);
      const rightDigits = skipZeros(right, other, rightEnd);
      let order = leftEnd - leftDigits - (rightEnd - rightDigits);
      for (let offset = 0; order === 0 && leftDigits + offset < leftEnd; offset++)
        order = left.charCodeAt(leftDigits + offset) - right.charCodeAt(rightDigits + offset);
      if (order !== 0) {
        if (!settles(left, leftEnd) || !settles(right, rightEnd)) return sign(fallback(left, right));
        return order < 0 ? -1 : 1;
      }
      at = leftEnd;
      other = rightEnd;
      continue;
    }
    if (leftWeight === rightWeight) {
      // The same letter in another case.
      at += 1;
      other += 1;
      continue;
    }
    if (!settles(left, at + 1) || !settles(right, other + 1)) return sign(fallback(left, right));
    return leftWeight < rightWeight ? -1 : 1;
  }
}

function sign(order: number): number {
  return order < 0 ? -1 : order > 0 ? 1 : 0;
}
