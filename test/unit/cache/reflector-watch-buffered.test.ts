import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { errorStopRequested, handleAnyWatch, watchEventsPerTurn } from '../../../main/cache/reflector-watch';
import type { WatchHandlerOptions } from '../../../main/cache/reflector-watch';
import type { Store } from '../../../main/cache/store';
import { turnBudgetMs } from '../../../main/cache/turn-budget';
import { WatchStream } from '../../../main/kube/watch-stream';
import type { KubeObject } from '../../../shared/kube/object';

function added(name: string, resourceVersion: string): string {
  const object = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', resourceVersion } };
  return JSON.stringify({ type: 'ADDED', object }) + '\n';
}

/** handleAnyWatch's options for these tests: a plain watch of pods, nothing logged. */
function watchOptions(clock: FakeClock, overrides: Partial<WatchHandlerOptions> = {}): WatchHandlerOptions {
  return {
    name: 'test',
    typeDescription: 'pods',
    clock,
    signal: new AbortController().signal,
    exitOnInitialEventsEnd: false,
    setLastSyncResourceVersion: () => {},
    log: () => {},
    ...overrides,
  };
}

function recordingStore(onAdd: (obj: KubeObject) => void): Store<KubeObject> {
  return { add: onAdd, update: () => {}, delete: () => {} } as unknown as Store<KubeObject>;
}

/**
 * Runs `run`, sampling `count` once per iteration of the event loop meanwhile (not on a timer: a fast
 * machine finishes every turn inside one millisecond, before any timer is due), so consecutive samples
 * differ by one turn's work.
 */
async function sampledPerIteration<Result>(
  count: () => number,
  run: () => Promise<Result>,
): Promise<{ result: Result; samples: number[] }> {
  const samples: number[] = [];
  let sampling = true;
  const sample = () => {
    samples.push(count());
    if (sampling) setImmediate(sample);
  };
  setImmediate(sample);
  try {
    return { result: await run(), samples };
  } finally {
    sampling = false;
  }
}

describe('handleAnyWatch over a WatchStream (buffered events)', () => {
  it('applies a whole chunk of events in order and records the last resourceVersion', async () => {
    const clock = new FakeClock();
    const source = new PassThrough();
    const stream = new WatchStream<KubeObject>(source, { request: 'watching pods', clock });
    const names: string[] = [];
    const versions: string[] = [];
    source.write(added('a', '1') + added('b', '2') + added('c', '3'));
    source.end();
    const outcome = await handleAnyWatch(
      0,
      stream,
      recordingStore((obj) => names.push(obj.metadata.name ?? '')),
      watchOptions(clock, {
        setLastSyncResourceVersion: (resourceVersion) => versions.push(resourceVersion),
      }),
    );
    expect(outcome).toEqual({ initialEventsEndReceived: false, eventCount: 3 });
    expect(names).toEqual(['a', 'b', 'c']);
    expect(versions).toEqual(['1', '2', '3']);
  });

  it('stops between buffered events once the signal aborts', async () => {
    const clock = new FakeClock();
    const source = new PassThrough();
    const stream = new WatchStream<KubeObject>(source, { request: 'watching pods', clock });
    const stop = new AbortController();
    const names: string[] = [];
    source.write(added('a', '1') + added('b', '2') + added('c', '3'));
    const store = recordingStore((obj) => {
      names.push(obj.metadata.name ?? '');
      stop.abort();
    });
    const outcome = await handleAnyWatch(0, stream, store, watchOptions(clock, { signal: stop.signal }));
    expect(outcome.error).toBe(errorStopRequested);
    expect(names).toEqual(['a']);
  });

  it('yields to the event loop after each turn of buffered events, so timers run during a burst', async () => {
    const clock = new FakeClock();
    const source = new PassThrough();
    const stream = new WatchStream<KubeObject>(source, { request: 'watching pods', clock });
    const total = watchEventsPerTurn * 3 + 10;
    source.write(Array.from({ length: total }, (_, index) => added(`p${index}`, String(index + 1))).join(''));
    source.end();
    await new Promise<void>((resolve) => setImmediate(resolve));
    const names: string[] = [];
    const { result: outcome, samples } = await sampledPerIteration(
      () => names.length,
      () =>
        handleAnyWatch(
          0,
          stream,
          recordingStore((obj) => names.push(obj.metadata.name ?? '')),
          watchOptions(clock),
        ),
    );
    expect(outcome).toEqual({ initialEventsEndReceived: false, eventCount: total });
    expect(names).toHaveLength(total);
    const turns = samples.slice(1).map((applied, index) => applied - samples[index]);
    expect(samples.some((applied) => applied > 0 && applied < total)).toBe(true);
    expect(Math.max(...turns)).toBeLessThanOrEqual(watchEventsPerTurn + 1);
  });

  it('ends a turn early once it has run for its time budget', async () => {
    const clock = new FakeClock();
    const source = new PassThrough();
    const stream = new WatchStream<KubeObject>(source, { request: 'watching pods', clock });
    source.write(Array.from({ length: 100 }, (_, index) => added(`p${index}`, String(index + 1))).join(''));
    source.end();
    await new Promise<void>((resolve) => setImmediate(resolve));
    const names: string[] = [];
    // Each event takes a millisecond: the budget is spent long before watchEventsPerTurn events.
    const store = recordingStore((obj) => {
      names.push(obj.metadata.name ?? '');
      clock.step(1);
    });
    const { samples } = await sampledPerIteration(
      () => names.length,
      () => handleAnyWatch(0, stream, store, watchOptions(clock)),
    );
    expect(names).toHaveLength(100);
    const turns = samples
      .slice(1)
      .map((applied, index) => applied - samples[index])
      .filter((applied) => applied > 0);
    expect(turns.length).toBeGreaterThan(1);
    // The turn after the first may take a single event: the first turn spent the loop's iteration
    // (see LoopTurn), and an iteration ends on the real clock, which this clock's milliseconds do not
    // move. Every later turn runs in an iteration of its own.
    expect(Math.min(...turns.slice(1, -1))).toBeGreaterThanOrEqual(turnBudgetMs);
    expect(Math.max(...turns)).toBeLessThan(watchEventsPerTurn);
  });
});
