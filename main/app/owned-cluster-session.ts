// A ClusterSession as the app opens it (backend.ts): it also owns its discovery, HTTP connection and
// recording, and keeps what following its kubeconfig entry needs (the entry it was opened from, who the
// API server knows its credentials as, its login plugin's run).
import { ClusterSession } from '../bridge/cluster-session';
import type { SessionRecording } from '../bridge/history-recording';
import type { ClusterConnection } from '../kube/cluster-connection';
import type { ExecPluginRun } from '../kube/exec-plugin-run';
import type { UserInfo } from '../kube/self-subject-review';

/**
 * A ClusterSession that also owns its discovery, HTTP connection and recording, and releases them on
 * close, except a recording it handed over to the session that replaces it.
 */
export class OwnedClusterSession extends ClusterSession {
  /** The kubeconfig entry it was opened from (Kubeconfig.connectionEntry); undefined when embedded. */
  entry: string | undefined;
  /** That entry's server part (Kubeconfig.serverEntry): when only the rest changes, credentials may swap. */
  serverEntry: string | undefined;
  /**
   * Who the API server knows the session's credentials as, asked once at open (SelfSubjectReview);
   * rejects where it cannot tell (a server before 1.28, credentials it refuses).
   */
  identity: Promise<UserInfo> | undefined;
  connection: ClusterConnection | undefined;
  /** The login plugin's run that lasts, while it does (see exec-plugin-run.ts). */
  login: { run: ExecPluginRun | undefined } = { run: undefined };
  /** Where the session's connections (a renewal's candidate too) tell of their plugin's runs. */
  onExecRun: (run: ExecPluginRun | undefined) => void = () => undefined;
  release: () => void = () => undefined;
  /** Drops the context's connections (see ClusterConnection.resetConnections). */
  resetConnections: (reason: string) => void = () => undefined;
  private recordingHandedOver = false;
  private closing: Promise<void> | undefined;

  /**
   * After sleep the connections are most likely half-open: dropped first, the watches re-established
   * at once open a new one instead of waiting up to 45 s on the dead one for its health check.
   */
  override reconnectAll(reason: string, staleSince: number): void {
    this.resetConnections(reason);
    super.reconnectAll(reason, staleSince);
  }

  /**
   * The recording, for the session opened to replace this one: one writer holds a recording file, so
   * it passes on open, its streams in a gap from this session's close to the next one's lists.
   */
  handOverRecording(): SessionRecording | undefined {
    this.recordingHandedOver = true;
    return this.options.recording;
  }

  /** Closes once, however often asked (the replacing session closes it before BridgeHost does). */
  override close(): Promise<void> {
    return (this.closing ??= (async () => {
      await super.close();
      this.release();
      if (!this.recordingHandedOver) void this.options.recording?.recorder?.close();
    })());
  }
}
