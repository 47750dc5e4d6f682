// Ports of client-go shared_informer_test.go's resync tests: per-handler periods on one shared
// check period, timed on the FakeClock.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ProcessorListener } from '../../../main/cache/processor-listener';
import type { ResourceEventHandlerRegistration } from '../../../main/cache/resource-event-handler';
import { determineResyncPeriod } from '../../../main/cache/shared-processor';
import { SharedIndexInformer } from '../../../main/cache/shared-informer';
import { FakeControllerSource } from '../../support/fake-controller-source';
import type { RunningInformer } from './shared-informer-helpers';
import { RecordingHandler, advance, eventually, pod, runInformer } from './shared-informer-helpers';

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
let running: RunningInformer | undefined;

afterEach(async () => {
  await running?.stop();
  running = undefined;
});

function resyncPeriodOf(registration: ResourceEventHandlerRegistration): number {
  return (registration as ProcessorListener<KubeObject>).resyncPeriod;
}

describe('SharedIndexInformer resync', () => {
  it('ListenerResyncPeriods: each handler is resynced on its own period', async () => {
    const clock = new FakeClock();
    const source = new FakeControllerSource();
    source.add(pod('pod1'));
    source.add(pod('pod2'));
    const informer = new SharedIndexInformer<KubeObject>({
      listerWatcher: source,
      clock,
      defaultResyncPeriod: second,
    });
    const never = new RecordingHandler();
    const everyTwo = new RecordingHandler();
    const everyThree = new RecordingHandler();
    informer.addEventHandler(never, 0);
    informer.addEventHandler(everyTwo, 2 * second);
    informer.addEventHandler(everyThree, 3 * second);
    running = runInformer(informer);
    const all = [never, everyTwo, everyThree];
    await eventually(() => all.every((handler) => handler.names().length === 2), 'initial list');
    all.forEach((handler) => handler.clear());

    await advance(clock, 2 * second, second);
    expect(everyTwo.events.sort()).toEqual(['update:pod1', 'update:pod2']);
    expect(never.events).toEqual([]);
    expect(everyThree.events).toEqual([]);
    all.forEach((handler) => handler.clear());

    await advance(clock, second);
    expect(everyThree.events.sort()).toEqual(['update:pod1', 'update:pod2']);
    expect(never.events).toEqual([]);
    expect(everyTwo.events).toEqual([]);
  });

  it('ResyncCheckPeriod: shorter handler periods lower the check period before start', () => {
    const informer = new SharedIndexInformer<KubeObject>({
      listerWatcher: new FakeControllerSource(),
      clock: new FakeClock(),
      defaultResyncPeriod: 12 * hour,
    });
    const first = informer.addEventHandler(new RecordingHandler(), 0);
    expect(informer.resyncCheckPeriod()).toBe(12 * hour);
    expect(resyncPeriodOf(first)).toBe(0);

    const second1m = informer.addEventHandler(new RecordingHandler(), minute);
    expect(informer.resyncCheckPeriod()).toBe(minute);
    expect(resyncPeriodOf(second1m)).toBe(minute);

    const third55s = informer.addEventHandler(new RecordingHandler(), 55 * second);
    expect(informer.resyncCheckPeriod()).toBe(55 * second);
    expect(resyncPeriodOf(third55s)).toBe(55 * second);

    const fourth5s = informer.addEventHandler(new RecordingHandler(), 5 * second);
    expect(informer.resyncCheckPeriod()).toBe(5 * second);
    expect([first, second1m, third55s, fourth5s].map(resyncPeriodOf)).toEqual([
      0,
      minute,
      55 * second,
      5 * second,
    ]);
  });

  it('raises a handler period below the check period once started, and to at least 1 s before', async () => {
    const informer = new SharedIndexInformer<KubeObject>({
      listerWatcher: new FakeControllerSource(),
      clock: new FakeClock(),
      defaultResyncPeriod: 5 * second,
    });
    const tiny = informer.addEventHandler(new RecordingHandler(), 10);
    expect(resyncPeriodOf(tiny)).toBe(second);
    expect(informer.resyncCheckPeriod()).toBe(second);

    running = runInformer(informer);
    const late = informer.addEventHandler(new RecordingHandler(), 500);
    expect(informer.resyncCheckPeriod()).toBe(second);
    expect(resyncPeriodOf(late)).toBe(second);
  });

  it('determineResyncPeriod: 0 stays 0, no check means no resync, and the check period is a floor', () => {
    expect(determineResyncPeriod(0, second)).toBe(0);
    expect(determineResyncPeriod(5 * second, 0)).toBe(0);
    expect(determineResyncPeriod(500, second)).toBe(second);
    expect(determineResyncPeriod(3 * second, second)).toBe(3 * second);
  });
});
