// One object through time: every recorded version, deleted objects included, and the change just
// before or after a moment (to step the timeline from change to change of the selected object).
import type { KubeObject } from '../../shared/kube/object';
import type { ObjectVersion } from '../../shared/protocol/history-messages';
import { decodeDeltaType } from './recorded-change';
import type { RecordedChange } from './recorded-change';
import type { ChangeRow, RecordingReader } from './recording-reader';
import { changeColumns } from './recording-reader';

/**
 * An object by uid (one incarnation), or by kind and namespace/name (every incarnation under that
 * name, e.g. a StatefulSet pod recreated with a new uid). `namespace` is "" for cluster-scoped kinds.
 */
export type ObjectReference =
  { readonly uid: string } | { readonly gvr: string; readonly namespace: string; readonly name: string };

/**
 * Every recorded version of the object, oldest first. When more than one informer recorded it (all
 * namespaces and its own namespace), one informer's record is used: the all-namespaces one if any.
 */
export function objectVersions(reader: RecordingReader, reference: ObjectReference): RecordedChange[] {
  const decoder = reader.decoder();
  return changeRows(reader, reference, '', []).map((row) => reader.toChange(row, decoder));
}

/**
 * Every recorded version of the object as the History tab lists them, oldest first, none decoded: a
 * busy Deployment's hour holds thousands of versions, each a few kilobytes once decoded.
 */
export function objectVersionList(reader: RecordingReader, reference: ObjectReference): ObjectVersion[] {
  return changeRows(reader, reference, '', []).map((row) => {
    const { type, finalStateUnknown } = decodeDeltaType(row.type);
    return {
      id: row.id,
      time: row.time,
      type,
      uid: row.uid,
      resourceVersion: row.resource_version,
      finalStateUnknown,
    };
  });
}

/** The object's versions among change ids `ids`, oldest first, decoded (an id not the object's is left out). */
export function objectVersionsById(
  reader: RecordingReader,
  reference: ObjectReference,
  ids: readonly number[],
): RecordedChange[] {
  if (ids.length === 0) return [];
  const decoder = reader.decoder();
  return changeRows(reader, reference, `AND c.id IN (${ids.map(() => '?').join(',')})`, ids).map((row) =>
    reader.toChange(row, decoder),
  );
}

/**
 * The object as recorded at `time`: its last version stamped at or before it, or undefined when there
 * is none or that version deleted it.
 */
export function objectAt(
  reader: RecordingReader,
  reference: ObjectReference,
  time: number,
): KubeObject | undefined {
  const [row] = changeRows(reader, reference, 'AND c.time <= ?', [time], 'DESC LIMIT 1');
  if (!row) return undefined;
  const change = reader.toChange(row, reader.decoder());
  return change.type === 'Deleted' ? undefined : change.object;
}

/** The object's change rows that `condition` (with `values`) keeps, by id (oldest first unless `order`). */
function changeRows(
  reader: RecordingReader,
  reference: ObjectReference,
  condition: string,
  values: readonly (string | number)[],
  order = '',
): ChangeRow[] {
  const objectIds = resolveObjects(reader, reference);
  if (objectIds.length === 0) return [];
  return reader.guard(
    `versions of ${describeReference(reference)}`,
    [] as ChangeRow[],
    () =>
      reader.database
        .prepare(
          `SELECT ${changeColumns} WHERE c.object IN (${objectIds.map(() => '?').join(',')}) ${condition} ORDER BY c.id ${order}`,
        )
        .all(...objectIds, ...values) as ChangeRow[],
  );
}

/**
 * The object's last change stamped before `time` ("previous") or its first stamped after it
 * ("next"); undefined when there is none.
 */
export function adjacentChange(
  reader: RecordingReader,
  reference: ObjectReference,
  time: number,
  direction: 'previous' | 'next',
): RecordedChange | undefined {
  const objectIds = resolveObjects(reader, reference);
  if (objectIds.length === 0) return undefined;
  const comparison = direction === 'previous' ? 'c.time < ? ORDER BY c.id DESC' : 'c.time > ? ORDER BY c.id';
  const row = reader.guard(
    `${direction} change of ${describeReference(reference)}`,
    undefined,
    () =>
      reader.database
        .prepare(
          `SELECT ${changeColumns} WHERE c.object IN (${objectIds.map(() => '?').join(',')}) AND ${comparison} LIMIT 1`,
        )
        .get(...objectIds, time) as ChangeRow | undefined,
  );
  return row && reader.toChange(row, reader.decoder());
}

/** The object rows of one stream that `reference` names, preferring the all-namespaces stream. */
function resolveObjects(reader: RecordingReader, reference: ObjectReference): number[] {
  const rows = reader.guard(
    `objects of ${describeReference(reference)}`,
    [] as { id: number; stream: number }[],
    () => {
      if ('uid' in reference) {
        return reader.database.prepare('SELECT id, stream FROM objects WHERE uid = ?').all(reference.uid) as {
          id: number;
          stream: number;
        }[];
      }
      const streams = reader
        .streams()
        .filter((stream) => stream.gvr === reference.gvr)
        .map((stream) => stream.id);
      if (streams.length === 0) return [];
      return reader.database
        .prepare(
          `SELECT id, stream FROM objects WHERE namespace = ? AND name = ? AND stream IN (${streams.map(() => '?').join(',')})`,
        )
        .all(reference.namespace, reference.name, ...streams) as { id: number; stream: number }[];
    },
  );
  if (rows.length === 0) return [];
  const preferred = rows.find((row) => reader.stream(row.stream)?.scope === '')?.stream ?? rows[0].stream;
  return rows.filter((row) => row.stream === preferred).map((row) => row.id);
}

function describeReference(reference: ObjectReference): string {
  if ('uid' in reference) return `uid ${reference.uid}`;
  return `${reference.gvr} ${reference.namespace ? `${reference.namespace}/` : ''}${reference.name}`;
}
