// The renderer's metrics: the bounded history of recent samples, the store's latest-per-key and history,
// what each availability keeps, and the columns' values (usage, and percentages of the row's
// requests, limits or allocatable, "n/a" without one).
import { describe, expect, it } from 'vitest';
import { printerFor } from '../../../shared/kinds/columns';
import type { KubeObject } from '../../../shared/kube/object';
import type { MetricsMessage } from '../../../shared/protocol/metrics-messages';
import type { Row } from '../../../shared/protocol/row';
import { MetricsStore } from '../../../renderer/store/metrics-store';
import { SampleHistory } from '../../../renderer/store/sample-history';
import { metricColumnSpecs, metricValue } from '../../../renderer/views/metric-columns';

function served(time: number, keys: string[], cpu: number[], memory: number[]): MetricsMessage {
  return { type: 'metrics', resource: 'pods', availability: 'served', timestamp: time, keys, cpu, memory };
}

describe('SampleHistory', () => {
  it('keeps the newest `capacity` batches per object, oldest first', () => {
    const history = new SampleHistory(3);
    for (let time = 1; time <= 5; time++) history.push(time, ['a/x'], [time], [time * 2]);
    expect(history.samples('a/x')).toEqual([
      { time: 3, cpu: 3, memory: 6 },
      { time: 4, cpu: 4, memory: 8 },
      { time: 5, cpu: 5, memory: 10 },
    ]);
  });

  it('starts a new object with the batches it appears in, and forgets one missing from a batch', () => {
    const history = new SampleHistory(3);
    history.push(1, ['a/x'], [1], [1]);
    history.push(2, ['a/x', 'a/y'], [2, 20], [2, 20]);
    expect(history.samples('a/y').map((sample) => sample.time)).toEqual([2]);
    history.push(3, ['a/y'], [30], [30]);
    expect(history.samples('a/x')).toEqual([]);
    expect(history.samples('a/y').map((sample) => sample.cpu)).toEqual([20, 30]);
  });

  it('forgets the objects a batch lacks a step at a time, the batch still unseen until it ends', () => {
    const history = new SampleHistory(3);
    const all = Array.from({ length: 10_000 }, (_, index) => `a/pod-${index}`);
    history.push(
      1,
      all,
      all.map(() => 1),
      all.map(() => 1),
    );
    const kept = all.slice(0, 100);
    expect(history.begin(2)).toBe(true);
    history.write(
      kept,
      kept.map(() => 2),
      kept.map(() => 2),
      0,
      kept.length,
    );
    let looks = 0;
    // One step per call: 9,900 objects to forget among 10,000 rows take three steps of 4,096.
    while (!history.sweep(kept.length, () => (looks++, false)));
    expect(looks).toBe(2);
    expect(history.latestSamples().get('a/pod-9999')).toBeUndefined();
    expect(history.latestSamples().get('a/pod-0')).toEqual({ time: 1, cpu: 1, memory: 1 });
    history.end(kept.length);
    expect(history.latestSamples().get('a/pod-0')).toEqual({ time: 2, cpu: 2, memory: 2 });
    expect(history.latestSamples().size).toBe(100);
    expect(history.samples('a/pod-5000')).toEqual([]);
    expect(history.samples('a/pod-99').map((sample) => sample.cpu)).toEqual([1, 2]);
  });

  it('gives an object that comes after one has gone none of its samples', () => {
    const history = new SampleHistory(3);
    history.push(1, ['a/x'], [1], [1]);
    history.push(2, ['a/x'], [2], [2]);
    history.push(3, ['a/y'], [3], [3]);
    history.push(4, ['a/y', 'a/z'], [4, 40], [4, 40]);
    expect(history.samples('a/z')).toEqual([{ time: 4, cpu: 40, memory: 40 }]);
    expect(history.latestSamples().get('a/z')).toEqual({ time: 4, cpu: 40, memory: 40 });
  });

  it('keeps every object apart however many it holds', () => {
    const history = new SampleHistory(2);
    const keys = Array.from({ length: 10_000 }, (_, index) => `a/pod-${index}`);
    history.push(
      1,
      keys,
      keys.map((_, index) => index),
      keys.map((_, index) => index * 2),
    );
    history.push(
      2,
      keys.slice(5_000),
      keys.slice(5_000).map((_, index) => -index),
      keys.slice(5_000).map(() => 0),
    );
    expect(history.samples('a/pod-4999')).toEqual([]);
    expect(history.samples('a/pod-9999')).toEqual([
      { time: 1, cpu: 9_999, memory: 19_998 },
      { time: 2, cpu: -4_999, memory: 0 },
    ]);
    expect(history.latestSamples().size).toBe(5_000);
  });

  it('ignores a batch no newer than the last (the same scrape read again)', () => {
    const history = new SampleHistory(3);
    history.push(10, ['a/x'], [1], [0]);
    history.push(10, ['a/x'], [2], [0]);
    expect(history.samples('a/x')).toEqual([{ time: 10, cpu: 1, memory: 0 }]);
  });
});

describe('MetricsStore', () => {
  it('keeps the latest sample per key and a bounded history, dropping keys gone from the batch', () => {
    const store = new MetricsStore(2);
    store.receive(served(1, ['a/x', 'a/y'], [0.1, 0.2], [1, 2]));
    store.receive(served(2, ['a/x'], [0.3], [3]));
    store.receive(served(3, ['a/x'], [0.5], [5]));
    expect(store.of('pods').latest.get('a/x')).toEqual({ time: 3, cpu: 0.5, memory: 5 });
    expect(store.of('pods').timestamp).toBe(3);
    expect(store.of('pods').latest.has('a/y')).toBe(false);
    expect(store.history('pods', 'a/x').map((sample) => sample.time)).toEqual([2, 3]);
    expect(store.history('pods', 'a/y')).toEqual([]);
  });

  it('keeps the last samples while polls fail, and drops them when the API is absent', () => {
    const store = new MetricsStore();
    let notified = 0;
    store.subscribe(() => notified++);
    store.receive(served(1, ['a/x'], [0.1], [1]));
    store.receive({ ...served(2, [], [], []), availability: 'failing', reason: 'timeout' });
    expect(store.of('pods')).toMatchObject({ availability: 'failing', reason: 'timeout' });
    expect(store.of('pods').latest.size).toBe(1);
    store.receive({ ...served(3, [], [], []), availability: 'absent' });
    expect(store.of('pods').latest.size).toBe(0);
    expect(notified).toBe(3);
  });
});

describe('MetricsStore with a large poll', () => {
  /** A store whose parts' tasks go to `tasks`, reading the budget on `now`. */
  const storeOf = (tasks: (() => void)[], now: () => number) =>
    new MetricsStore(3, undefined, {
      schedule: (task) => {
        tasks.push(task);
        return () => void tasks.splice(tasks.indexOf(task), 1);
      },
      now,
    });
  /** A clock on which every look is 1 ms after the last: a step of keys "takes" 1 ms. */
  const slowClock = () => {
    let time = 0;
    return () => time++;
  };
  const keys = Array.from({ length: 50_000 }, (_, index) => `ns/pod-${index}`);
  const poll = (time: number, value: number) =>
    served(
      time,
      keys,
      keys.map(() => value),
      keys.map(() => value),
    );

  it('keeps it in parts, one task each, and shows it only once every part is in', () => {
    const tasks: (() => void)[] = [];
    const store = storeOf(tasks, slowClock());
    let notified = 0;
    store.subscribe(() => notified++);
    store.receive(poll(1, 1));
    expect(tasks).toHaveLength(1);
    expect(store.of('pods').latest.size).toBe(0);
    while (tasks.length > 0) tasks.shift()!();
    expect(notified).toBe(1);
    expect(store.of('pods').latest.get('ns/pod-49999')).toEqual({ time: 1, cpu: 1, memory: 1 });
    store.receive(poll(2, 2));
    // Half written: the shown samples and the history are still the first poll's.
    tasks.shift()!();
    expect(store.of('pods').latest.get('ns/pod-0')).toEqual({ time: 1, cpu: 1, memory: 1 });
    expect(store.history('pods', 'ns/pod-0').map((sample) => sample.time)).toEqual([1]);
    // The next message finishes it first, in order.
    store.receive(served(3, ['ns/pod-0'], [3], [3]));
    // The second poll is whole at once; the third forgets the 49,999 pods it lacks in parts of its own.
    expect(store.history('pods', 'ns/pod-0').map((sample) => sample.time)).toEqual([1, 2]);
    expect(tasks).toHaveLength(1);
    while (tasks.length > 0) tasks.shift()!();
    expect(store.history('pods', 'ns/pod-0').map((sample) => sample.cpu)).toEqual([1, 2, 3]);
    expect(store.history('pods', 'ns/pod-1')).toEqual([]);
    expect(store.of('pods').latest.size).toBe(1);
  });

  it('cuts a poll by the time its writes take, not by its count of keys', () => {
    // Writes that take no time: the whole poll in the message's own task.
    const fastTasks: (() => void)[] = [];
    const fast = storeOf(fastTasks, () => 0);
    fast.receive(poll(1, 1));
    expect(fastTasks).toHaveLength(0);
    expect(fast.of('pods').latest.size).toBe(50_000);
    // Writes of 1 ms a step of keys: each task stops at its budget, a few steps in.
    const slowTasks: (() => void)[] = [];
    const slow = storeOf(slowTasks, slowClock());
    slow.receive(poll(1, 1));
    let parts = 1;
    while (slowTasks.length > 0) {
      slowTasks.shift()!();
      parts++;
    }
    expect(parts).toBeGreaterThanOrEqual(6);
    expect(slow.of('pods').latest.get('ns/pod-49999')).toEqual({ time: 1, cpu: 1, memory: 1 });
  });

  it('keeps a poll of one step in its own task, whatever the clock says after it', () => {
    const tasks: (() => void)[] = [];
    let time = 0;
    // Every look at the clock is past the budget: a loaded machine, or a collection in the write.
    const store = storeOf(tasks, () => (time += 100));
    store.receive(served(1, ['ns/pod-0', 'ns/pod-1'], [1, 2], [1, 2]));
    expect(tasks).toHaveLength(0);
    expect(store.of('pods').latest.size).toBe(2);
  });

  it("leaves a pods poll's parts to their own tasks when a nodes message comes meanwhile", () => {
    const tasks: (() => void)[] = [];
    const store = storeOf(tasks, slowClock());
    store.receive(poll(1, 1));
    store.receive({ ...served(1, ['node-a'], [2], [4]), resource: 'nodes' });
    expect(store.of('nodes').latest.get('node-a')).toEqual({ time: 1, cpu: 2, memory: 4 });
    // Pods are still being kept: the nodes poll, another resource's history, did not finish them.
    expect(tasks).toHaveLength(1);
    expect(store.of('pods').latest.size).toBe(0);
    while (tasks.length > 0) tasks.shift()!();
    expect(store.of('pods').latest.get('ns/pod-49999')).toEqual({ time: 1, cpu: 1, memory: 1 });
  });
});

describe('metrics columns', () => {
  const pod: KubeObject = {
    metadata: { name: 'web', namespace: 'a', creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: {
      containers: [
        { name: 'app', resources: { requests: { cpu: '200m', memory: '128Mi' }, limits: { cpu: '1' } } },
        { name: 'sidecar', resources: { requests: { cpu: '50m', memory: '64Mi' } } },
      ],
    },
  };
  const printer = printerFor({ group: '', resource: 'pods' });
  const row = { key: 'a/web', cells: printer.cells(pod, 0) } as Row;
  const specs = metricColumnSpecs(printer.columns, 'Pod');
  const value = (id: string, cpu: number, memory: number) =>
    metricValue(specs.find((spec) => spec.id === `metrics:${id}`)!.source, row, { time: 0, cpu, memory });

  it('shows usage, and percentages of the summed requests', () => {
    expect(value('cpu', 0.125, 0)).toBe(0.125);
    expect(value('cpu-request', 0.125, 0)).toBe(50);
    expect(value('memory-request', 0, 96 * 2 ** 20)).toBe(50);
  });

  it('has no limit percentage when a container sets no limit (n/a, not 0%)', () => {
    expect(value('cpu-limit', 0.5, 0)).toBeUndefined();
    expect(value('memory-limit', 0, 2 ** 20)).toBeUndefined();
  });

  it('has no value without a sample', () => {
    expect(metricValue(specs[0]!.source, row, undefined)).toBeUndefined();
  });
});
