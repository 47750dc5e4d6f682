// A custom resource as kube-apiserver writes it. Its objects are unstructured (map[string]interface{}),
// and Go's encoding/json writes a map's keys sorted by their bytes, at every level: a custom resource
// comes as {"apiVersion":…,"kind":…,"metadata":{"creationTimestamp":…,"name":…},"spec":…}, and a
// list of them as {"apiVersion":…,"items":[…],"kind":…,"metadata":{…}}, its items before its
// kind and its metadata (continue, remainingItemCount, resourceVersion). Built-in types keep their
// structs' field order (JSON.stringify of what the simulator builds).

/** `value` as JSON text with every object's keys in Go's order: by code point, as UTF-8 bytes sort. */
export function unstructuredJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => unstructuredJson(item ?? null)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort(byCodePoint)) {
    const member = record[key];
    // As JSON.stringify: a member that has no JSON (undefined, a function) is left out.
    if (member === undefined || typeof member === 'function') continue;
    members.push(`${JSON.stringify(key)}:${unstructuredJson(member)}`);
  }
  return `{${members.join(',')}}`;
}

/**
 * Go compares strings byte by byte, which for UTF-8 is code point order; JavaScript's default sort
 * compares UTF-16 code units, which differs only past U+FFFF (a surrogate pair sorts before U+E000).
 */
function byCodePoint(left: string, right: string): number {
  if (left === right) return 0;
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const a = left.codePointAt(index)!;
    const b = right.codePointAt(index)!;
    if (a !== b) return a < b ? -1 : 1;
    if (a > 0xffff) index++;
  }
  return left.length - right.length;
}
