// What a ClusterSession needs to record its cluster: the context's Recorder (none when another
// instance records the context and this one only reads), the file it writes (which
// history queries read back), and the kinds recorded from the start, before any renderer opens them.
import type { GroupVersionResource } from '../../shared/kube/object';
import type { Recorder } from '../history/recorder';
import type { RetentionPolicy } from '../history/retention';

export interface SessionRecording {
  /** Undefined when another instance writes the context's recording: this one reads it only. */
  readonly recorder: Recorder | undefined;
  /** Why the recording is read-only (another recorder holds its lock), for the user. */
  readonly readOnly?: string;
  readonly file: string;
  /** What bounds how far back the recording reaches, for the timeline to say. */
  readonly retention?: RetentionPolicy;
  /**
   * Keep the last logs of recorded pods' container runs that end (default true); false for a
   * context whose logs the user does not want on disk.
   */
  readonly crashLogs?: boolean;
  /**
   * Kinds whose feeds (all namespaces) run for the whole session, so their history always exists.
   * The first starts with the session; the others once every feed running then has synced, so that
   * they do not slow the first view's sync (see RecordedKindsStart).
   */
  readonly kinds: readonly GroupVersionResource[];
}

const core = (resource: string): GroupVersionResource => ({ group: '', version: 'v1', resource });
const apps = (resource: string): GroupVersionResource => ({ group: 'apps', version: 'v1', resource });

/**
 * Recorded whether or not anyone looks: the kinds a question about "what happened" usually starts
 * from, pods first (what the app opens on, started with the session). Every other kind is recorded
 * while some renderer subscribes to it.
 */
export const defaultRecordedKinds: readonly GroupVersionResource[] = [
  core('pods'),
  apps('deployments'),
  apps('replicasets'),
  apps('statefulsets'),
  apps('daemonsets'),
  core('nodes'),
  core('namespaces'),
  core('services'),
  core('events'),
];
