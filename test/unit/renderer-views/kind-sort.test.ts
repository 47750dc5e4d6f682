import { describe, expect, it } from 'vitest';
import type { Row } from '../../../shared/protocol';
import type { KubeObject } from '../../../shared/kube/object';
import { printerFor } from '../../../shared/kinds/columns';
import { SubscriptionMirror } from '../../../renderer/store/subscription-mirror';
import { orderedQuery, SortedOrder } from '../../../renderer/views/sorted-order';
import { kindColumns } from '../../../renderer/views/table-columns';
import { kindDefaultColumn, rowSortFor, shownSort } from '../../../renderer/views/kind-sort';
import { nextSort } from '../../../renderer/ui-state/view-store';
import { eventsNewestFirst } from '../../../renderer/views/event-order';

const minute = 60_000;
const now = Date.parse('2026-12-01T12:00:00Z');

function mirrorWith(rows: Row[]): SubscriptionMirror {
  const mirror = new SubscriptionMirror();
  mirror.apply({
    type: 'batch',
    subscriptionId: 's',
    seq: 1,
    replace: true,
    snapshotEnd: true,
    upserts: rows,
    deletes: [],
  });
  return mirror;
}

function objectRow(object: KubeObject, resource: string, group = ''): Row {
  const name = object.metadata.name!;
  return {
    key: `default/${name}`,
    uid: name,
    name,
    namespace: 'default',
    resourceVersion: '1',
    labels: {},
    owners: [],
    createdAt: Date.parse(object.metadata.creationTimestamp ?? '') || 0,
    cells: printerFor({ group, resource }).cells(object, now),
  };
}

function pod(name: string, minutesOld: number): KubeObject {
  const created = new Date(now - minutesOld * minute).toISOString();
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', creationTimestamp: created },
  };
}

function event(name: string, fields: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: 'default', creationTimestamp: new Date(now - 60 * minute).toISOString() },
    involvedObject: { kind: 'Pod', name: 'web' },
    ...fields,
  };
}

const ago = (minutes: number) => new Date(now - minutes * minute).toISOString();

function sortedNames(
  mirror: SubscriptionMirror,
  columns: ReturnType<typeof kindColumns>,
  column: string,
  descending: boolean,
) {
  const keys = orderedQuery(mirror, {}, rowSortFor({ column, descending }, columns), new SortedOrder());
  return keys.map((key) => mirror.rows.get(key)!.name);
}

describe('AGE order', () => {
  const columns = kindColumns(printerFor({ group: '', resource: 'pods' }).columns, true, 'Pod');
  const age = columns.find((column) => column.title === 'Age')!.id;
  const mirror = mirrorWith(
    [pod('old', 300), pod('young', 1), pod('middle', 30)].map((object) => objectRow(object, 'pods')),
  );

  it('ascending puts the youngest first, as an age (a duration) reads, though cells hold creation times', () => {
    expect(sortedNames(mirror, columns, age, false)).toEqual(['young', 'middle', 'old']);
  });

  it('descending puts the oldest first', () => {
    expect(sortedNames(mirror, columns, age, true)).toEqual(['old', 'middle', 'young']);
  });

  it('a first click on AGE sorts ascending (youngest first), a second flips it', () => {
    const first = nextSort({ column: 'name', descending: false }, age);
    expect(first).toEqual({ column: age, descending: false });
    expect(nextSort(first, age)).toEqual({ column: age, descending: true });
  });
});

describe('Events order', () => {
  const columns = kindColumns(printerFor({ group: '', resource: 'events' }).columns, true, 'Event');
  const events = [
    event('legacy-old', { lastTimestamp: ago(50), firstTimestamp: ago(55) }),
    event('series-newest', { eventTime: ago(40), series: { count: 3, lastObservedTime: ago(2) } }),
    event('legacy-new', { lastTimestamp: ago(10), firstTimestamp: ago(20) }),
    event('event-time-only', { eventTime: ago(30) }),
  ];

  it('the Events table defaults to Last Seen, newest first, reading series, lastTimestamp and eventTime', () => {
    const sort = shownSort({ column: kindDefaultColumn, descending: false }, columns, 'Event');
    expect(columns.find((column) => column.id === sort.column)?.title).toBe('Last Seen');
    const mirror = mirrorWith(events.map((object) => objectRow(object, 'events')));
    expect(sortedNames(mirror, columns, sort.column, sort.descending)).toEqual([
      'series-newest',
      'legacy-new',
      'event-time-only',
      'legacy-old',
    ]);
  });

  it('other kinds default to name order', () => {
    const podColumns = kindColumns(printerFor({ group: '', resource: 'pods' }).columns, true, 'Pod');
    expect(shownSort({ column: kindDefaultColumn, descending: false }, podColumns, 'Pod')).toEqual({
      column: 'name',
      descending: false,
    });
  });

  it("the detail pane's Events tab lists the same order", () => {
    expect(eventsNewestFirst(events).map((object) => object.metadata.name)).toEqual([
      'series-newest',
      'legacy-new',
      'event-time-only',
      'legacy-old',
    ]);
  });
});
