import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeAbandonedSiblings, replaceFolder, siblingFolder } from '../../../main/app/folder-swap';

let parent: string;
let target: string;

beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'kubetide-folder-swap-'));
  target = join(parent, 'renderer');
});
afterEach(() => rmSync(parent, { recursive: true, force: true }));

const files = 40;

/** A build named `id`: `files` files, each holding the id. */
function build(id: string): string {
  const folder = join(parent, `build-${id}`);
  mkdirSync(folder);
  for (let index = 0; index < files; index++) writeFileSync(join(folder, `file-${index}.js`), id);
  return folder;
}

/** The ids the target's files hold, or undefined while it is absent. */
function idsInTarget(): Set<string> | 'partial' | undefined {
  let names: string[];
  try {
    names = readdirSync(target);
  } catch {
    return undefined;
  }
  if (names.length !== files) return 'partial';
  const ids = new Set<string>();
  for (const name of names) {
    try {
      ids.add(readFileSync(join(target, name), 'utf8'));
    } catch {
      // Renamed away between the listing and the read: the reader's next look finds the new build.
      return new Set(['moved']);
    }
  }
  return ids;
}

describe('replaceFolder', () => {
  it('puts the build in place of the old folder and leaves no other folder behind', async () => {
    await replaceFolder(build('old'), target);
    await replaceFolder(build('new'), target);
    expect(idsInTarget()).toEqual(new Set(['new']));
    expect(readdirSync(parent)).toEqual(['renderer']);
  });

  it('two builders at once leave one whole build and nothing of the other', async () => {
    await replaceFolder(build('old'), target);
    await Promise.all([replaceFolder(build('a'), target), replaceFolder(build('b'), target)]);
    const ids = idsInTarget();
    expect(ids instanceof Set && ids.size === 1 && (ids.has('a') || ids.has('b'))).toBe(true);
    expect(readdirSync(parent)).toEqual(['renderer']);
  });

  it('a reader during swaps finds a whole build or none, never a folder being filled or emptied', async () => {
    await replaceFolder(build('0'), target);
    const seen: (Set<string> | 'partial' | undefined)[] = [];
    let swapping = true;
    const reader = (async () => {
      while (swapping) {
        seen.push(idsInTarget());
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    for (let round = 1; round <= 30; round++) await replaceFolder(build(String(round)), target);
    swapping = false;
    await reader;
    expect(seen.length).toBeGreaterThan(0);
    for (const ids of seen) {
      expect(ids).not.toBe('partial');
      if (ids instanceof Set && !ids.has('moved')) expect(ids.size).toBe(1);
    }
    expect(idsInTarget()).toEqual(new Set(['30']));
  });
});

describe('removeAbandonedSiblings', () => {
  it("removes what an exited process left and keeps a running process's and unrelated folders", async () => {
    const exited = spawnSync(process.execPath, ['-e', '0']).pid!;
    const abandoned = join(parent, `renderer.building-${exited}-abc`);
    const retired = join(parent, `renderer.retired-${exited}-abc`);
    const ours = siblingFolder(target, 'building');
    const unrelated = join(parent, 'renderer.backup');
    for (const folder of [abandoned, retired, ours, unrelated, target]) mkdirSync(folder);
    await removeAbandonedSiblings(target);
    expect(readdirSync(parent).sort()).toEqual(
      ['renderer', 'renderer.backup', ours.slice(parent.length + 1)].sort(),
    );
  });
});
