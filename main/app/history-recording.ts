// The app's side of recording: one Recorder per opened context, writing the context's recording file
// under the data directory, handed to the ClusterSession that feeds it.
import type { Clock } from '../cache/clock';
import { dataDirectory, recordingFile } from '../history/data-directory';
import { Recorder } from '../history/recorder';
import { RecordingError } from '../history/recording-error';
import type { RetentionPolicy } from '../history/retention';
import type { SessionRecording } from '../bridge/history-recording';
import { defaultRecordedKinds } from '../bridge/history-recording';

export interface SessionRecordingOptions {
  readonly context: string;
  readonly clock: Clock;
  readonly log: (message: string) => void;
  /** Overrides the per-OS data directory (the --data-dir option). */
  readonly dataDirectory?: string | undefined;
  /** How much history the recording keeps (the --keep-days and --keep-size options). */
  readonly retention?: RetentionPolicy | undefined;
  /** Keep crashed containers' last logs (default true; the --no-crash-logs option turns it off). */
  readonly crashLogs?: boolean | undefined;
}

/**
 * Opens (or creates) the context's recording, written from a worker thread; the time since it was
 * last written is recorded as a gap by the Recorder. When another instance records the context (holds
 * the file's lock), returns it read-only, without a Recorder, and logs why. Returns undefined, after
 * logging why, when the file cannot be opened: the app then runs without history rather than not at all.
 */
export async function openSessionRecording(
  options: SessionRecordingOptions,
): Promise<SessionRecording | undefined> {
  const directory = dataDirectory(options.dataDirectory ? { override: options.dataDirectory } : {});
  const file = recordingFile(directory, options.context);
  try {
    const recorder = await Recorder.open({
      file,
      context: options.context,
      clock: options.clock,
      ...(options.retention ? { retention: options.retention } : {}),
      reportError: (error, where) =>
        options.log(`kubetide: ${where}: ${error instanceof Error ? error.message : String(error)}`),
    });
    options.log(`kubetide: recording context ${options.context} to ${file}`);
    return {
      recorder,
      file,
      kinds: defaultRecordedKinds,
      crashLogs: options.crashLogs ?? true,
      ...(options.retention ? { retention: options.retention } : {}),
    };
  } catch (error) {
    if (error instanceof RecordingError && error.problem.kind === 'locked') {
      // One writer per recording: this instance shows the history the other one writes.
      const readOnly = error.problem.message;
      options.log(`kubetide: ${file} is read-only here: ${readOnly}`);
      return { recorder: undefined, readOnly, file, kinds: defaultRecordedKinds };
    }
    options.log(
      `kubetide: cannot record context ${options.context} to ${file} (${error instanceof Error ? error.message : String(error)}); history is off`,
    );
    return undefined;
  }
}
