// `npm run bench` works end to end at a small size and prints every field issue 7 names. Only the
// presence and type of the figures is checked: timings on a shared machine are not assertions.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

const expectedFields: Record<string, string[]> = {
  sync: [
    'kubetide_ms',
    'client_node_ms',
    'floor_ms',
    'kubetide_heap_bytes_per_obj',
    'client_node_heap_bytes_per_obj',
  ],
  watch: ['kubetide_events_per_s', 'client_node_events_per_s', 'floor_events_per_s', 'max_loop_stall_ms'],
  bridge: ['p50_ms', 'p99_ms', 'batch_size_p50', 'batch_size_max'],
  renderer: ['apply_ms', 'selector_ms', 'index_ms'],
  history: [
    'record_events_per_s',
    'main_max_stall_ms',
    'stamp_delay_p99_ms',
    'bytes_per_event',
    'rebuild_ms',
  ],
  logs: ['lines_per_s', 'max_frame_ms', 'mb_per_million_lines'],
};

describe('npm run bench', () => {
  it('prints one JSON object per benchmark with every field of issue 7', { timeout: 240_000 }, async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        'test/bench/run.ts',
        '--pods',
        '2000',
        '--events',
        '2000',
        '--history-events',
        '2000',
        '--log-lines',
        '20000',
        '--json',
      ],
      { maxBuffer: 1 << 20 },
    );
    const results = stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(results.map((result) => result.bench)).toEqual(Object.keys(expectedFields));
    for (const result of results) {
      for (const field of expectedFields[result.bench as string]) {
        expect(typeof result[field], `${String(result.bench)}.${field}`).toBe('number');
        expect(Number.isFinite(result[field]), `${String(result.bench)}.${field}`).toBe(true);
      }
    }
  });
});
