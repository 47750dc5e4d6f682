// Playback's steps through the real query worker: with a step length, each page carries each key's
// last change of each step (rows from the row frames where they hold them), stamped at the step's end,
// so that the rows applied through a step are the recorded moment at its end, row for row.
import { afterAll, describe, expect, it } from 'vitest';
import { HistoryQueries } from '../../../main/history/history-queries';
import type { PlaybackChange } from '../../../main/history/history-queries';
import { RowProjector } from '../../../main/bridge/row-projection';
import { RecordingWriter } from '../../../main/history/recording-writer';
import { openForWriting } from '../../../main/history/schema';
import { printerFor } from '../../../shared/kinds/columns';
import type { KubeObject } from '../../../shared/kube/object';
import type { Row } from '../../../shared/protocol/row';
import { realisticPod, tempDirectory } from './fixtures';

const pods = { group: '', version: 'v1', resource: 'pods' };
const queries = new HistoryQueries();
const directory = tempDirectory();
afterAll(() => {
  queries.close();
  directory.remove();
});
const start = Date.UTC(2026, 11, 2, 12);
/** Pods listed in the recording's first second (a burst), then churn for `seconds`. */
const listed = 3_000;
const seconds = 12;

/**
 * The list, then every 100 ms: ten of 40 hot pods updated (each several times a second), a pod created
 * and deleted within the same tick, and every second a listed pod deleted; a transaction and its row
 * frames a recorded second, as the recording worker writes them. Returns the file and how many
 * changes it holds.
 */
function record(): { file: string; times: number[] } {
  const file = directory.file('steps.kubetide');
  const database = openForWriting(file, 'test', start);
  const writer = new RecordingWriter(database);
  const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
  const live = new Map<string, KubeObject>();
  let resourceVersion = 1;
  const times: number[] = [];
  const write = (time: number, pod: KubeObject, type: 'Added' | 'Updated' | 'Deleted') => {
    const object = { ...pod, metadata: { ...pod.metadata, resourceVersion: String(resourceVersion++) } };
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    if (type === 'Deleted') live.delete(key);
    else live.set(key, object);
    writer.writeChange({ time, stream, type, finalStateUnknown: false, object, key });
    times.push(time);
  };
  const podKey = (index: number) => `team-${index % 7}/web-${index}`;
  for (let second = 0; second <= seconds; second++) {
    const from = start + second * 1_000;
    writer.transaction(() => {
      for (let tick = 1; tick <= 10; tick++) {
        const time = from + tick * 100;
        if (second === 0) {
          for (let index = (tick - 1) * (listed / 10); index < tick * (listed / 10); index++)
            write(time, realisticPod(`web-${index}`, `team-${index % 7}`, `node-${index % 5}`), 'Added');
          continue;
        }
        for (let hot = 0; hot < 10; hot++) {
          const pod = live.get(podKey((second * 10 + tick + hot) % 40));
          if (pod) write(time, { ...pod, status: { phase: tick % 2 ? 'Running' : 'Pending' } }, 'Updated');
        }
        const brief = realisticPod(`brief-${second}-${tick}`, 'team-1');
        write(time, brief, 'Added');
        write(time, brief, 'Deleted');
        if (tick === 5) write(time, live.get(podKey(second + 100))!, 'Deleted');
      }
      writer.writeRowFramesDue(from + 1_000);
      writer.touch(from + 1_000);
    });
  }
  database.close();
  return { file, times };
}
let recording: ReturnType<typeof record> | undefined;
const recorded = () => (recording ??= record());

/** Every pod's row at `time`, as a travel there would project it. */
async function rowsAt(file: string, time: number): Promise<Map<string, Row>> {
  const projector = new RowProjector(printerFor(pods));
  const rows = new Map<string, Row>();
  await queries.stateAt(file, { gvr: 'pods.v1', time }, (objects) => {
    for (const object of objects) {
      const row = projector.project(object, time);
      rows.set(row.key, row);
    }
  });
  return rows;
}

describe('playback steps', () => {
  it('sends each key once a step, and the rows applied through each step are the moment at its end', async () => {
    const { file, times } = recorded();
    const stepMs = 1_000;
    const { id } = await queries.openPlayback(file, { from: start, gvr: 'pods.v1', rows: true, stepMs });
    const pages: PlaybackChange[][] = [];
    for (let done = false; !done;) {
      const page = await queries.playbackChanges(id, 500, start);
      pages.push(page.changes);
      done = page.done;
    }
    const sent = pages.flat();
    // Squashed: the hot pods' repeats within a step, and the pods created and deleted within one,
    // leave a change per key (the latter a deletion, which a page not holding the key drops).
    const churned = (times: number[]) => times.filter((time) => time > start + 1_000).length;
    expect(churned(sent.map((change) => change.time))).toBeLessThan(churned(times) / 3);
    // Stamped at step ends, on the grid from the moment played from.
    for (const change of sent) expect((change.time - start) % stepMs).toBe(0);
    // The list's step came over several pages of at most 500.
    expect(pages.filter((page) => page.length > 0 && page[0]!.time === start + 1_000).length).toBe(6);
    const mirror = new Map<string, Row>();
    const steps = [...new Set(sent.map((change) => change.time))];
    expect(steps.length).toBe(seconds + 1);
    for (const end of steps) {
      const step = sent.filter((change) => change.time === end);
      // One change per key in a step (the list's, split over pages, names each pod once too).
      expect(new Set(step.map((change) => ('key' in change ? change.key : ''))).size).toBe(step.length);
      for (const change of step) {
        if (!('key' in change)) throw new Error('rows were asked for');
        if (change.row) mirror.set(change.key, change.row);
        else mirror.delete(change.key);
      }
      expect(mirror).toEqual(await rowsAt(file, end));
    }
  }, 180_000);

  it('plays change by change, at each change its own time, without a step length', async () => {
    const { file, times } = recorded();
    const from = start + 5_000;
    const { id } = await queries.openPlayback(file, { from, gvr: 'pods.v1', rows: true });
    const sent: PlaybackChange[] = [];
    for (let done = false; !done;) {
      const page = await queries.playbackChanges(id, 2_000, start);
      sent.push(...page.changes);
      done = page.done;
    }
    expect(sent.map((change) => change.time)).toEqual(times.filter((time) => time > from));
  }, 180_000);
});
