// The public API of main/history: record informers into a recording, and read recordings back (state
// at a moment, playback, object versions and diffs, export). Import from here; the storage format
// behind it (schema, writer, codecs, keyframes) is free to change with recordingFormatVersion.

// Where recordings live.
export type { DataDirectoryEnvironment } from './data-directory';
export { dataDirectory, recordingFile } from './data-directory';

// Recording.
export type { RecorderAttachment, RecorderOptions, RecorderStats } from './recorder-options';
export { Recorder } from './recorder';
export type { RecordingProcess, RecordingProcessFactory } from './recording-process';
export { inlineRecordingProcess } from './recording-process';
export { workerRecordingProcess } from './worker-recording-process';
export type { RetentionPolicy } from './retention';

// What a recording holds.
export type {
  GapReason,
  RecordedChange,
  RecordingMark,
  RelistReason,
  StreamIdentity,
} from './recorded-change';
export { recordingFormatVersion } from './schema';

// Reading, and what goes wrong reading.
export type { RecordingProblem, RecordingProblemKind } from './recording-error';
export { RecordingError } from './recording-error';
export type { ReaderStream, RecordingMetadata } from './recording-reader';
export { RecordingReader, openRecording } from './recording-reader';
export type {
  DensityOptions,
  PlaybackBatch,
  PlaybackOptions,
  ReplayState,
  StateQuery,
  TimeRange,
} from './replay';
export { eventDensity, playback, recordingMarks, stateAt, timeRange } from './replay';
export type { RebuiltState, TimelineFigures, TimelineQuery } from './history-queries';
export { HistoryQueries } from './history-queries';
export type { ObjectReference } from './object-history';
export { adjacentChange, objectVersions } from './object-history';
export type { DiffLine } from './object-diff';
export { diffLines, diffObjects, objectYaml } from './object-diff';

// Export (opening the file with openRecording is the import).
export type { ExportOptions, ExportSummary } from './export-recording';
export { exportRecording } from './export-recording';
export type { ExportInWorkerOptions } from './export-in-worker';
export { exportInWorker } from './export-in-worker';
