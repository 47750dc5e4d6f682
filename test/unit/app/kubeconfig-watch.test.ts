// KubeconfigWatch on real files and real folder events, each reading taken by the worker thread the
// app uses: a context added (the file replaced by a rename, as kubectl writes it) is reported once its
// writes settle; a half-written file keeps the last reading and says so once; a rewrite with the same
// contexts updates the reading without a report; a kubeconfig whose folder does not exist yet is
// noticed when both appear.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stringify } from 'yaml';
import { FakeClock } from '../../../main/cache/fake-clock';
import { readKubeconfigOffMain } from '../../../main/app/kubeconfig-reading';
import { KubeconfigWatch, settleMs } from '../../../main/app/kubeconfig-watch';
import { Kubeconfig } from '../../../main/kube/kubeconfig';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.reverse()) step();
  cleanup = [];
});

function config(contexts: string[], token = 'token-1'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443' } }],
    users: [{ name: 'u', user: { token } }],
    contexts: contexts.map((name) => ({ name, context: { cluster: 'c', user: 'u' } })),
    'current-context': contexts[0],
  });
}

/** Writes `text` beside `file` and renames it over, as kubectl and most editors save. */
function replace(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

function follow(file: string, initial: Kubeconfig | undefined) {
  const clock = new FakeClock();
  const changes: string[][] = [];
  const readings: Kubeconfig[] = [];
  const logged: string[] = [];
  const watch = new KubeconfigWatch(
    {
      files: [file],
      load: () => readKubeconfigOffMain([file]),
      onChange: (kubeconfig) => changes.push(kubeconfig.listContexts().map((context) => context.name)),
      onReading: (kubeconfig) => readings.push(kubeconfig),
      clock,
      log: (line) => logged.push(line),
    },
    initial,
  );
  cleanup.push(() => watch.close());
  /** Once the folder's event has arrived (a reading is scheduled), lets the writes settle. */
  const settle = async () => {
    await vi.waitFor(() => expect(clock.hasWaiters()).toBe(true), { timeout: 5_000 });
    clock.step(settleMs);
    await watch.settled();
  };
  return { watch, changes, readings, logged, settle };
}

function folder(): string {
  const directory = mkdtempSync(join(tmpdir(), 'kubeconfig-watch-'));
  cleanup.push(() => rmSync(directory, { recursive: true, force: true }));
  return directory;
}

describe('KubeconfigWatch', () => {
  it('reports a context added, once the writes settle; keeps the last reading through a bad write', async () => {
    const file = join(folder(), 'config');
    writeFileSync(file, config(['kind-a']));
    const { watch, changes, logged, settle } = follow(file, Kubeconfig.fromFiles([file]));
    replace(file, config(['kind-a', 'kind-b']));
    await settle();
    expect(changes).toEqual([['kind-a', 'kind-b']]);

    writeFileSync(file, 'clusters: [\n  - name: c\n    cluster: {server: "https://');
    await settle();
    expect(logged.some((line) => line.includes('keeping the last reading'))).toBe(true);
    expect(watch.kubeconfig!.listContexts().map((context) => context.name)).toEqual(['kind-a', 'kind-b']);
    replace(file, config(['kind-b']));
    await settle();
    expect(changes.at(-1)).toEqual(['kind-b']);
    expect(logged).toHaveLength(1);
  });

  it('takes a rewrite with the same contexts as the reading, without reporting it as a change', async () => {
    const file = join(folder(), 'config');
    writeFileSync(file, config(['kind-a']));
    const initial = Kubeconfig.fromFiles([file]);
    const { watch, changes, readings, settle } = follow(file, initial);
    replace(file, config(['kind-a'], 'token-2'));
    await settle();
    expect(watch.kubeconfig).not.toBe(initial);
    expect(changes).toEqual([]);
    // Handed on as a reading all the same: the open context's entry is compared with it (backend.ts).
    expect(readings).toEqual([watch.kubeconfig]);
    expect(readings[0]!.connectionEntry('kind-a')).not.toBe(initial.connectionEntry('kind-a'));
  });

  it('notices a kubeconfig whose folder did not exist when it started', async () => {
    const home = folder();
    const file = join(home, '.kube', 'config');
    const { watch, changes, settle } = follow(file, undefined);
    mkdirSync(join(home, '.kube'));
    writeFileSync(file, config(['kind-kind']));
    await settle();
    expect(changes).toEqual([['kind-kind']]);
    expect(watch.kubeconfig?.currentContext).toBe('kind-kind');
  });
});
