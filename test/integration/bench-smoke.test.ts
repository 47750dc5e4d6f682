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
  renderer: ['apply_ms', 'selector_ms', 'index_ms', 'typing_key_p95_ms', 'typing_key_max_ms'],
  history: [
    'record_events_per_s',
    'main_max_stall_ms',
    'stamp_delay_p99_ms',
    'bytes_per_event',
    'rebuild_ms',
  ],
  logs: ['lines_per_s', 'max_frame_ms', 'mb_per_million_lines'],
};

/** The ui bench's fields: each must be measured (a finite number), whatever its value. */
const uiFields = [
  'first_rows_ms',
  'synced_ms',
  // The CPU every process spent to synced, and the least wall time it allows on this machine's cores.
  'synced_cpu_s',
  'synced_backend_main_cpu_s',
  'synced_cpu_bound_ms',
  'keystroke_p50_ms',
  'keystroke_p95_ms',
  'typing_dropped_keys',
  'scroll_frame_p50_ms',
  'scroll_frame_p95_ms',
  'scroll_frame_max_ms',
  'kind_switch_ms',
  'detail_open_ms',
  'travel_complete_ms',
  'playback_speed_error_pct',
  'playback_still_max_ms',
  // What each playback was measured over, and the pods' listing gap: what tells a playback or travel
  // inside the initial list's record from one past it.
  'playback_measured_ms',
  'playback_churn_measured_ms',
  'pods_listing_gap_s',
  'long_tasks_per_min',
  'renderer_heap_mb',
  'main_cpu_pct',
  // The churn the cluster made, and the time its loop could not make up: what says a run was churned as asked.
  'changes_per_s',
  'cluster_unchurned_s',
  'cluster_tick_gap_max_ms',
  'floor_first_rows_ms',
  'floor_keystroke_p95_ms',
  'floor_scroll_frame_p95_ms',
];

// Generous bounds: these runs share two cores with the rest of the suite; the issue-7 run took 193 s of
// its former 240 s in a passing CI run (95-102 s alone), and 240 s ran out in one at load 13.
describe('npm run bench', () => {
  it('prints one JSON object per benchmark with every field of issue 7', { timeout: 480_000 }, async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        'test/bench/run.ts',
        '--only',
        Object.keys(expectedFields).join(','),
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

  it('runs the ui bench in Chromium and prints every field of issue 15', { timeout: 300_000 }, async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        'test/bench/run.ts',
        '--only',
        'ui',
        '--pods',
        '2000',
        '--churn',
        '20',
        '--ui-seconds',
        '2',
        '--ui-brief',
        '--json',
      ],
      { maxBuffer: 1 << 20 },
    );
    const result = JSON.parse(stdout.trim()) as Record<string, unknown>;
    expect(result.bench).toBe('ui');
    for (const field of uiFields) expect(Number.isFinite(result[field]), `ui.${field}`).toBe(true);
  });
});
