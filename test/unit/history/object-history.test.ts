// Object history: every version of one object, deleted ones included, stepping from change to change,
// and the YAML diff between two versions.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { diffLines, diffObjects } from '../../../main/history/object-diff';
import { adjacentChange, objectVersions } from '../../../main/history/object-history';
import { openRecording } from '../../../main/history/recording-reader';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeControllerSource } from '../../support/fake-controller-source';
import type { TempDirectory } from './fixtures';
import { realisticPod, recordedInformer, seededRandom, settle, tempDirectory } from './fixtures';

let directory: TempDirectory | undefined;
afterEach(() => directory?.remove());

/** Records: web-1 created, updated twice, deleted; later a new web-1 (new uid) created. */
async function recordLifecycle() {
  directory = tempDirectory();
  const file = directory.file('history.kubetide');
  const clock = new FakeClock();
  const source = new FakeControllerSource();
  const run = await recordedInformer(source, file, clock);
  await settle();
  const times: number[] = [];
  let first = source.add(realisticPod('web-1'));
  const step = async () => {
    await settle();
    times.push(clock.now());
    await clock.stepAsync(1000);
  };
  await step();
  first = structuredClone(first);
  first.metadata.labels = { ...first.metadata.labels, release: 'canary' };
  const second = source.modify(first);
  await step();
  (second.status as { phase: string }).phase = 'Running';
  const third = source.modify(second);
  await step();
  const deleted = source.delete(third);
  await step();
  const again = source.add(realisticPod('web-1'));
  await step();
  await run.stop();
  await run.recorder.close();
  const resourceVersions = [first, second, third, deleted].map((object) => object.metadata.resourceVersion);
  return { file, times, resourceVersions, firstUid: first.metadata.uid!, secondUid: again.metadata.uid! };
}

describe('objectVersions', () => {
  it('lists every version of one uid, its deletion included, oldest first', async () => {
    const { file, firstUid, resourceVersions } = await recordLifecycle();
    const reader = openRecording(file);
    const versions = objectVersions(reader, { uid: firstUid });
    expect(versions.map((version) => version.type)).toEqual(['Added', 'Updated', 'Updated', 'Deleted']);
    expect(versions[1].object?.metadata.labels?.release).toBe('canary');
    expect((versions[2].object?.status as { phase: string }).phase).toBe('Running');
    expect(versions.every((version) => version.object?.metadata.managedFields === undefined)).toBe(true);
    expect(versions.map((version) => version.resourceVersion)).toEqual(resourceVersions);
    reader.close();
  });

  it('by namespace and name, spans every incarnation under that name', async () => {
    const { file, firstUid, secondUid } = await recordLifecycle();
    const reader = openRecording(file);
    const versions = objectVersions(reader, { gvr: 'pods.v1', namespace: 'default', name: 'web-1' });
    expect(versions.map((version) => version.uid)).toEqual([
      firstUid,
      firstUid,
      firstUid,
      firstUid,
      secondUid,
    ]);
    reader.close();
  });
});

describe('adjacentChange', () => {
  it('steps to the previous and next change of the object from a moment', async () => {
    const { file, times, firstUid, resourceVersions } = await recordLifecycle();
    const reader = openRecording(file);
    const reference = { uid: firstUid };
    expect(adjacentChange(reader, reference, times[1], 'previous')?.type).toBe('Added');
    expect(adjacentChange(reader, reference, times[1], 'next')?.resourceVersion).toBe(resourceVersions[2]);
    expect(adjacentChange(reader, reference, times[3], 'next')).toBeUndefined();
    expect(adjacentChange(reader, reference, times[0], 'previous')).toBeUndefined();
    reader.close();
  });
});

describe('diffObjects', () => {
  it('shows only the changed fields as removed and added YAML lines, managedFields excluded', () => {
    const before = realisticPod('web-2');
    const after = structuredClone(before);
    after.metadata.resourceVersion = '9';
    (after.status as { phase: string }).phase = 'Running';
    const changed = diffObjects(before, after).filter((line) => line.kind !== 'same');
    expect(changed.map((line) => `${line.kind} ${line.text.trim()}`)).toEqual([
      'added resourceVersion: "9"',
      'removed phase: Pending',
      'added phase: Running',
    ]);
    expect(diffObjects(before, after).some((line) => line.text.includes('managedFields'))).toBe(false);
  });

  it('is an edit script: its same+removed lines are the old text and same+added the new (fuzzed)', () => {
    const random = seededRandom(7);
    const pick = () => ['a', 'b', 'c', 'd'][Math.floor(random() * 4)];
    for (let round = 0; round < 300; round++) {
      const older = Array.from({ length: Math.floor(random() * 12) }, pick);
      const newer = Array.from({ length: Math.floor(random() * 12) }, pick);
      const lines = diffLines(older, newer);
      expect(lines.filter((line) => line.kind !== 'added').map((line) => line.text)).toEqual(older);
      expect(lines.filter((line) => line.kind !== 'removed').map((line) => line.text)).toEqual(newer);
      expect(lines.filter((line) => line.kind === 'same').length).toBe(
        longestCommonSubsequence(older, newer),
      );
    }
  });

  it('diffs a creation against nothing as all added lines', () => {
    const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } };
    expect(diffObjects(undefined, pod).every((line) => line.kind === 'added')).toBe(true);
  });
});

function longestCommonSubsequence(a: string[], b: string[]): number {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      table[i][j] =
        a[i - 1] === b[j - 1] ? table[i - 1][j - 1] + 1 : Math.max(table[i - 1][j], table[i][j - 1]);
  return table[a.length][b.length];
}
