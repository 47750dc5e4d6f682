// By hand: what a process's heap holds, from a V8 heap snapshot (.heapsnapshot), in a terminal. The
// backend's snapshot at 150,000 pods is about 1 GB, past the longest string V8 makes, so the file is
// read as bytes and its node and edge arrays parsed into typed arrays rather than by JSON.parse.
//
//   KUBETIDE_BENCH_BACKEND_NODE_ARGS="--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=DIR" \
//     npx tsx test/bench/ui-backend-churn.ts --pods 150000 --seconds 90   # then kill -USR2 the backend
//   node --max-old-space-size=16000 --import tsx test/bench/heap-snapshot-summary.ts DIR/Heap....heapsnapshot [--top 30]
//
// Prints the objects by type and constructor (count and self size), the plain objects by shape (their
// property names: what a part of a pod or a row is), and the strings held more than once (copies of
// one text in distinct string objects), the most costly first.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '30' } },
});
const top = Number(values.top);

interface Snapshot {
  nodes: Uint32Array;
  edges: Uint32Array;
  strings: string[];
  nodeFields: string[];
  nodeTypes: string[];
  edgeFields: string[];
  edgeTypes: string[];
}

/** The offset just past `"key":` from `from` on. */
function valueAt(bytes: Buffer, key: string, from: number): number {
  const at = bytes.indexOf(`"${key}":`, from);
  if (at === -1) throw new Error(`no "${key}" in the snapshot`);
  return at + key.length + 3;
}

/** The unsigned integers of the array opening at or after `from`, and where the array ends. */
function readNumbers(bytes: Buffer, from: number, count: number): { numbers: Uint32Array; end: number } {
  const numbers = new Uint32Array(count);
  let filled = 0;
  let value = 0;
  let inNumber = false;
  for (let index = bytes.indexOf(0x5b, from) + 1; ; index++) {
    const byte = bytes[index];
    if (byte >= 0x30 && byte <= 0x39) {
      value = value * 10 + byte - 0x30;
      inNumber = true;
      continue;
    }
    if (inNumber) numbers[filled++] = value;
    value = 0;
    inNumber = false;
    if (byte === 0x5d) return { numbers, end: index };
  }
}

/** The JSON strings of the array opening at or after `from`, each cut to 200 characters. */
function readStrings(bytes: Buffer, from: number): string[] {
  const strings: string[] = [];
  let index = bytes.indexOf(0x5b, from) + 1;
  for (;;) {
    while (bytes[index] !== 0x22 && bytes[index] !== 0x5d) index++;
    if (bytes[index] === 0x5d) return strings;
    let end = index + 1;
    while (bytes[end] !== 0x22) end += bytes[end] === 0x5c ? 2 : 1;
    const text = JSON.parse(bytes.toString('utf8', index, end + 1)) as string;
    strings.push(text.length > 200 ? text.slice(0, 200) : text);
    index = end + 1;
  }
}

function readSnapshot(file: string): Snapshot {
  const bytes = readFileSync(file);
  const nodesAt = valueAt(bytes, 'nodes', 0);
  const header = JSON.parse(`${bytes.toString('utf8', 0, bytes.lastIndexOf(0x2c, nodesAt))}}`) as {
    snapshot: {
      node_count: number;
      edge_count: number;
      meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
    };
  };
  const { meta, node_count: nodeCount, edge_count: edgeCount } = header.snapshot;
  const nodes = readNumbers(bytes, nodesAt, nodeCount * meta.node_fields.length);
  const edges = readNumbers(bytes, valueAt(bytes, 'edges', nodes.end), edgeCount * meta.edge_fields.length);
  return {
    nodes: nodes.numbers,
    edges: edges.numbers,
    strings: readStrings(bytes, valueAt(bytes, 'strings', edges.end)),
    nodeFields: meta.node_fields,
    nodeTypes: meta.node_types[0],
    edgeFields: meta.edge_fields,
    edgeTypes: meta.edge_types[0],
  };
}

const stringTypes = new Set(['string', 'concatenated string', 'sliced string']);

function summarize(file: string): void {
  const snapshot = readSnapshot(file);
  const { nodes, edges, strings, nodeFields, nodeTypes, edgeFields, edgeTypes } = snapshot;
  const fields = nodeFields.length;
  const [type, name, size, edgeCount] = ['type', 'name', 'self_size', 'edge_count'].map((field) =>
    nodeFields.indexOf(field),
  );
  const [edgeType, edgeName] = ['type', 'name_or_index'].map((field) => edgeFields.indexOf(field));
  const byConstructor = new Map<string, { count: number; bytes: number }>();
  const byShape = new Map<string, number>();
  const byText = new Map<string, { count: number; bytes: number }>();
  let total = 0;
  let edge = 0;
  for (let node = 0; node < nodes.length; node += fields) {
    const nodeType = nodeTypes[nodes[node + type]];
    const bytes = nodes[node + size];
    const text = strings[nodes[node + name]];
    const label = stringTypes.has(nodeType) ? `${nodeType}` : `${nodeType} ${text}`;
    const entry = byConstructor.get(label) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += bytes;
    byConstructor.set(label, entry);
    total += bytes;
    if (nodeType === 'string') {
      const copies = byText.get(text) ?? { count: 0, bytes: 0 };
      copies.count++;
      copies.bytes += bytes;
      byText.set(text, copies);
    }
    const edgesEnd = edge + nodes[node + edgeCount] * edgeFields.length;
    if (nodeType === 'object' && text === 'Object') {
      const properties: string[] = [];
      for (let at = edge; at < edgesEnd; at += edgeFields.length)
        if (edgeTypes[edges[at + edgeType]] === 'property') properties.push(strings[edges[at + edgeName]]);
      const shape = `{${properties.filter((property) => property !== '__proto__').join(', ')}}`;
      byShape.set(shape, (byShape.get(shape) ?? 0) + 1);
    }
    edge = edgesEnd;
  }
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1).padStart(7);
  console.log(
    `${file}: ${mb(total)} MB of self size in ${(nodes.length / fields).toLocaleString()} objects\n`,
  );
  console.log('  by type and constructor (MB, count):');
  for (const [label, entry] of [...byConstructor].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top))
    console.log(`  ${mb(entry.bytes)} ${String(entry.count).padStart(10)}  ${label.slice(0, 100)}`);
  console.log('\n  plain objects by shape (count; numbers held in place have no property edge):');
  for (const [shape, count] of [...byShape].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${String(count).padStart(10)}  ${shape.slice(0, 140)}`);
  let copies = 0;
  let copiedBytes = 0;
  for (const entry of byText.values()) {
    copies += entry.count - 1;
    copiedBytes += (entry.bytes * (entry.count - 1)) / entry.count;
  }
  console.log(
    `\n  strings held more than once: ${copies.toLocaleString()} extra copies, ${mb(copiedBytes)} MB:`,
  );
  const repeated = [...byText].filter(([, entry]) => entry.count > 1);
  for (const [text, entry] of repeated.sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top))
    console.log(
      `  ${mb(entry.bytes)} ${String(entry.count).padStart(10)}  ${JSON.stringify(text).slice(0, 90)}`,
    );
}

for (const file of positionals) summarize(file);
