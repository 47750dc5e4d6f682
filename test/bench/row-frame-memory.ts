// What row frames hold in the recording worker's heap: a RecordingWriter lists `--pods` realistic
// pods (a batch of 1,000 at a time, the frames due after each, as a recorder's session writes them),
// then the heap is measured after a full GC, with frames and without. The difference per pod is what
// RowFrameWriter keeps per live object; the CPU time of each list is beside it.
//
//   node --expose-gc --import tsx test/bench/row-frame-memory.ts [--pods 150000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordingWriter } from '../../main/history/recording-writer';
import { openForWriting } from '../../main/history/schema';
import { threadCpuMs } from '../../main/history/thread-cpu-time';
import { captureObject } from '../../main/history/captured-object';
import type { CapturedObject } from '../../main/history/captured-object';
import { realisticPod } from '../unit/history/fixtures';

const batch = 1_000;

function heapAfterGc(): number {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('run with node --expose-gc');
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/** Lists `objects` into a new recording; returns the heap it holds (writer kept alive) and its CPU. */
function list(objects: readonly CapturedObject[], frames: boolean): { heap: number; cpuMs: number } {
  const directory = mkdtempSync(join(tmpdir(), 'kubetide-row-frame-memory-'));
  const start = Date.UTC(2026, 11, 1);
  const database = openForWriting(join(directory, 'recording.kubetide'), 'bench', start);
  try {
    const before = heapAfterGc();
    const cpuBefore = threadCpuMs()!;
    const writer = new RecordingWriter(database, frames ? {} : { rowFrames: false });
    const stream = writer.stream({ gvr: 'pods.v1', scope: '' });
    writer.resetStream(stream);
    for (let first = 0; first < objects.length; first += batch) {
      writer.transaction(() => {
        for (const object of objects.slice(first, first + batch)) {
          const key = `${object.namespace}/${object.name}`;
          writer.writeCapturedChange({
            time: start,
            stream,
            type: 'Added',
            finalStateUnknown: false,
            object,
            key,
          });
        }
        writer.writeRowFramesDue(start + first);
      });
    }
    const cpuMs = threadCpuMs()! - cpuBefore;
    const heap = heapAfterGc() - before;
    // The writer stays reachable until the heap is measured.
    if (writer.liveObjectCount(stream) !== objects.length) throw new Error('not every pod was listed');
    return { heap, cpuMs };
  } finally {
    database.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

function main(): void {
  const argv = process.argv.slice(2);
  const pods = argv[0] === '--pods' ? Number(argv[1]) : 150_000;
  const objects = Array.from({ length: pods }, (_, index) =>
    captureObject(realisticPod(`app${index % 500}-7d9f8c6b5-${index}`, `ns-${index % 100}`)),
  );
  const without = list(objects, false);
  const withFrames = list(objects, true);
  const report = {
    pods,
    heap_without_frames_mb: Math.round(without.heap / 2 ** 20),
    heap_with_frames_mb: Math.round(withFrames.heap / 2 ** 20),
    frames_bytes_per_live_object: Math.round((withFrames.heap - without.heap) / pods),
    list_cpu_us_per_object_without_frames: Math.round((without.cpuMs * 1000) / pods),
    list_cpu_us_per_object_with_frames: Math.round((withFrames.cpuMs * 1000) / pods),
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main();
