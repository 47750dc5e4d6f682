// Parallel arrays (keys[i], cpu[i], memory[i] of one sample) cut alike into parts of a few thousand
// items for sending: how both a live metrics poll (metrics-parts.ts) and a parted reply
// (reply-parts.ts) travel, each joined back on arrival by one concat per array.

/**
 * `value`'s arrays named in `fields` (those it holds), sliced alike into consecutive parts of at
 * most `itemsPerPart` items: as many parts as the longest array needs.
 */
export function sliceParallelArrays(
  value: object,
  fields: readonly string[],
  itemsPerPart: number,
): Record<string, unknown[]>[] {
  const record = value as Readonly<Record<string, unknown>>;
  const arrays = fields.filter((field) => Array.isArray(record[field]));
  const longest = Math.max(0, ...arrays.map((field) => (record[field] as unknown[]).length));
  const parts: Record<string, unknown[]>[] = [];
  for (let start = 0; start < longest; start += itemsPerPart) {
    const part: Record<string, unknown[]> = {};
    for (const field of arrays) part[field] = (record[field] as unknown[]).slice(start, start + itemsPerPart);
    parts.push(part);
  }
  return parts;
}
