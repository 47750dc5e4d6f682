// The main process never opens SQLite: every recording is read and written in a worker (query,
// export, recording), which main starts by file name (startHistoryWorker), never by import. So no
// module main/app or main/bridge loads at run time may reach better-sqlite3 through its imports.
// Type-only imports are erased by the compiler and load nothing.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');

/** The modules `file` loads when it runs: its value imports and re-exports (relative or package). */
function runtimeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(statement)) {
    if (match[2]) continue;
    specifiers.push(match[4]!);
  }
  return specifiers;
}

function resolveModule(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The chain of files from one of `entries` to a module that imports `target`, if any. */
function pathTo(entries: string[], target: string): string[] | undefined {
  const parent = new Map<string, string | undefined>(entries.map((entry) => [entry, undefined]));
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const specifier of runtimeImports(file)) {
      if (specifier === target) {
        const chain = [file];
        for (let at = parent.get(file); at; at = parent.get(at)) chain.unshift(at);
        return chain.map((path) => path.slice(root.length + 1));
      }
      const next = resolveModule(file, specifier);
      if (next && !parent.has(next)) {
        parent.set(next, file);
        queue.push(next);
      }
    }
  }
  return undefined;
}

function modulesIn(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(root, folder, name));
}

describe('the main thread and SQLite', () => {
  it('the import walk sees a chain that exists (the query worker reaches better-sqlite3)', () => {
    expect(pathTo([join(root, 'main/history/query-worker.ts')], 'better-sqlite3')).toBeDefined();
  });

  it('no module of main/app or main/bridge reaches better-sqlite3 through its imports', () => {
    const entries = [...modulesIn('main/app'), ...modulesIn('main/bridge')];
    expect(entries.length).toBeGreaterThan(20);
    expect(pathTo(entries, 'better-sqlite3')).toBeUndefined();
  });
});
