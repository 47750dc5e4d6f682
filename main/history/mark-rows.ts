// The marks table's rows as RecordingMarks: one conversion for every reader of gaps and relists, so a
// mark names its stream (gvr and scope, not the file's stream id) the same way wherever it is read.
import type { RecordingMark } from './recorded-change';
import type { RecordingReader } from './recording-reader';

/** The columns every mark query selects: kind, reason, stream, start, end, detail. */
export const markColumns = 'kind, reason, stream, start, end, detail';

export interface MarkRow {
  kind: RecordingMark['kind'];
  reason: RecordingMark['reason'];
  stream: number | null;
  start: number;
  end: number | null;
  detail: string;
}

/** `row` as a RecordingMark; a mark of no stream (the whole recording) has no stream. */
export function markOfRow(reader: RecordingReader, row: MarkRow): RecordingMark {
  const stream = row.stream === null ? undefined : reader.stream(row.stream);
  return {
    kind: row.kind,
    reason: row.reason,
    stream: stream && { gvr: stream.gvr, scope: stream.scope },
    start: row.start,
    end: row.end ?? undefined,
    detail: row.detail,
  };
}
