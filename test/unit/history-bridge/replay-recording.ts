// A small recording for replays through the real query worker: 300 pods, then 2 s of changes.
import { RecordingWriter } from '../../../main/history/recording-writer';
import { openForWriting } from '../../../main/history/schema';
import type { KubeObject } from '../../../shared/kube/object';
import { tempDirectory } from '../history/fixtures';

export const recordingStart = Date.UTC(2026, 10, 30, 12);
const start = recordingStart;

/** A running pod of namespace shop. */
export function pod(name: string, resourceVersion: number, uid = `uid-${name}`): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shop', uid, resourceVersion: String(resourceVersion) },
    status: { phase: 'Running' },
  };
}

/**
 * 300 pods added at `start`; then every 10 ms for 2 s one is updated, and every 100 ms one is deleted
 * and one created under a name used before (another uid): the present differs from a moment 1 s in
 * by some rows, some deletes and some reused names.
 */
export function recordReplay(cleanups: (() => void)[]): { file: string; end: number } {
  const directory = tempDirectory();
  cleanups.push(directory.remove);
  const file = directory.file('replay.kubetide');
  const database = openForWriting(file, 'test', start);
  const writer = new RecordingWriter(database);
  const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
  let resourceVersion = 1;
  const change = (time: number, type: 'Added' | 'Updated' | 'Deleted', object: KubeObject) =>
    writer.writeChange({
      time,
      stream,
      type,
      finalStateUnknown: false,
      object,
      key: `shop/${object.metadata.name}`,
    });
  let end = start;
  writer.transaction(() => {
    for (let index = 0; index < 300; index++) change(start, 'Added', pod(`p${index}`, resourceVersion++));
    for (let time = start + 10, tick = 0; time <= start + 2_000; time += 10, tick++) {
      change(time, 'Updated', pod(`p${(tick * 7) % 300}`, resourceVersion++));
      if (tick % 10 === 0) {
        const name = `p${(tick * 13 + 1) % 300}`;
        change(time, 'Deleted', pod(name, resourceVersion++));
        change(time, 'Added', pod(name, resourceVersion++, `uid-${name}-${tick}`));
        change(time, 'Deleted', pod(`p${(tick * 11 + 2) % 300}`, resourceVersion++));
      }
      end = time;
    }
    writer.touch(end);
  });
  database.close();
  return { file, end };
}
