// A recorder killed with SIGKILL mid-recording, again and again: each time the file opens again, and
// every instant of the recording is either recorded (a live watch whose changes are all in the file)
// or inside a gap that says why. The recorder is the real headless one (record-cli, writing from its
// worker thread) recording the embedded cluster under churn in a child process, killed at a random
// moment (during its initial list, or well into its churn), so nothing gets a chance to close.
// KUBETIDE_HISTORY_KILLS sets how many kills (default 2); `npm run history-kill` runs 20.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { realClock } from '../../main/cache/real-clock';
import { Recorder } from '../../main/history/recorder';
import { openRecording } from '../../main/history/recording-reader';
import { recordingMarks, stateAt, timeRange } from '../../main/history/replay';
import { seededRandom } from '../support/seeded-random';
import { uncoveredSpans } from '../support/recording-coverage';

const kills = Number(process.env.KUBETIDE_HISTORY_KILLS ?? 2);

let directory: string | undefined;
const children = new Set<ReturnType<typeof spawn>>();
afterEach(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (directory) rmSync(directory, { recursive: true, force: true });
});

/** Starts record-cli, waits `delayMs` after it reports that it records, and kills it. */
async function recordAndKill(file: string, delayMs: number): Promise<{ printed: number; killedAt: number }> {
  const recorder = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'main/history/record-cli.ts',
      '--context',
      'kill-test',
      '--out',
      file,
      '--embedded',
      '--pods',
      '150',
      '--churn',
      '60',
      '--kinds',
      'pods',
    ],
    { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(recorder);
  const exited = new Promise<void>((resolve) => recorder.once('exit', () => resolve()));
  let output = '';
  let printed = 0;
  recorder.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    recorder.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      for (const match of chunk.toString().matchAll(/recorded (\d+) events/g)) printed = Number(match[1]);
      if (output.includes('recording context')) resolve();
    });
    recorder.once('exit', (code) => reject(new Error(`record-cli exited early (${code}):\n${output}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const killedAt = Date.now();
  recorder.kill('SIGKILL');
  await exited;
  children.delete(recorder);
  return { printed, killedAt };
}

describe('a recorder killed with SIGKILL', () => {
  it(
    `leaves, after ${kills} kills, a recording that opens and is everywhere recorded or a marked gap`,
    async () => {
      directory = mkdtempSync(join(tmpdir(), 'kubetide-kill-'));
      const file = join(directory, 'killed.kubetide');
      const random = seededRandom(12);
      let lastKill = { printed: 0, killedAt: 0 };
      for (let kill = 0; kill < kills; kill++) {
        // Half the kills land in the first second (start-up, the initial list), half well after.
        lastKill = await recordAndKill(file, random() < 0.5 ? random() * 1000 : 1500 + random() * 2000);
        const reader = openRecording(file);
        expect(reader.report()).toEqual([]);
        reader.close();
      }

      const reader = openRecording(file);
      const recorded = (
        reader.database.prepare('SELECT count(*) AS count FROM changes').get() as { count: number }
      ).count;
      expect(recorded).toBeGreaterThanOrEqual(lastKill.printed);
      const range = timeRange(reader)!;
      const state = stateAt(reader, { gvr: 'pods.v1', time: range.end });
      expect(state.complete).toBe(true);
      reader.close();

      // Recording again into the same file: it opens for writing (the dead writer's lock is stale)
      // and marks the time it was down.
      await (await Recorder.open({ file, context: 'kill-test', clock: realClock })).close();
      const reopened = openRecording(file);
      const after = timeRange(reopened)!;
      const down = recordingMarks(reopened, range.end, after.end).find(
        (mark) => mark.reason === 'not-recording',
      );
      expect(down?.start).toBeLessThanOrEqual(lastKill.killedAt);
      expect(stateAt(reopened, { gvr: 'pods.v1', time: range.end }).objects).toEqual(state.objects);
      expect(uncoveredSpans(reopened, 'pods.v1', after.start, after.end)).toEqual([]);
      expect(
        recordingMarks(reopened, after.start, after.end).filter((mark) => mark.end === undefined),
      ).toEqual([]);
      reopened.close();
    },
    60_000 + kills * 30_000,
  );
});
