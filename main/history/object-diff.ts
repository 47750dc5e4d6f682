// The difference between two versions of an object as YAML lines (managedFields excluded), the way a
// reviewer reads a change: unchanged lines for context, removed and added lines where they differ.
import { stringify } from 'yaml';
import type { KubeObject } from '../../shared/kube/object';

export interface DiffLine {
  readonly kind: 'same' | 'removed' | 'added';
  readonly text: string;
  /** 1-based line in the older YAML (same and removed lines). */
  readonly oldLine?: number;
  /** 1-based line in the newer YAML (same and added lines). */
  readonly newLine?: number;
}

/** The object as YAML without metadata.managedFields; undefined (no version) is the empty text. */
export function objectYaml(object: KubeObject | undefined): string {
  if (!object) return '';
  const { managedFields: _managedFields, ...metadata } = object.metadata ?? {};
  return stringify({ ...object, metadata }, { lineWidth: 0 });
}

/** The line diff of two versions' YAML. */
export function diffObjects(older: KubeObject | undefined, newer: KubeObject | undefined): DiffLine[] {
  return diffLines(splitLines(objectYaml(older)), splitLines(objectYaml(newer)));
}

/**
 * A shortest edit script by longest common subsequence: the common head and tail are matched first,
 * so the quadratic table covers only the changed middle (a few lines for a typical update).
 */
export function diffLines(older: readonly string[], newer: readonly string[]): DiffLine[] {
  let head = 0;
  while (head < older.length && head < newer.length && older[head] === newer[head]) head++;
  let tail = 0;
  while (
    tail < older.length - head &&
    tail < newer.length - head &&
    older[older.length - 1 - tail] === newer[newer.length - 1 - tail]
  )
    tail++;
  const a = older.slice(head, older.length - tail);
  const b = newer.slice(head, newer.length - tail);
  // common[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const common = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i][j] = a[i] === b[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
    }
  }
  const lines: DiffLine[] = [];
  for (let index = 0; index < head; index++)
    lines.push({ kind: 'same', text: older[index], oldLine: index + 1, newLine: index + 1 });
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ kind: 'same', text: a[i], oldLine: head + i + 1, newLine: head + j + 1 });
      i++;
      j++;
    } else if (i < a.length && (j === b.length || common[i + 1][j] >= common[i][j + 1])) {
      lines.push({ kind: 'removed', text: a[i], oldLine: head + i + 1 });
      i++;
    } else {
      lines.push({ kind: 'added', text: b[j], newLine: head + j + 1 });
      j++;
    }
  }
  for (let index = 0; index < tail; index++) {
    const oldIndex = older.length - tail + index;
    const newIndex = newer.length - tail + index;
    lines.push({ kind: 'same', text: older[oldIndex], oldLine: oldIndex + 1, newLine: newIndex + 1 });
  }
  return lines;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  return text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
}
