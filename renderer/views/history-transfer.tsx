// Export and import of recordings. Export writes a time range (optionally only the kind shown, or the
// namespaces picked) to a file the user chooses: in main's save dialog under Electron, as a browser
// download in browser mode. Import opens a recording read-only and shows it in place of the cluster,
// at its last moment: picked in main's open dialog, or uploaded from the browser. The page never
// names a path on main's machine.
import { useState, type FormEvent, type ReactNode } from 'react';
import type { GroupVersionResource } from '../../shared/kube/object';
import type { HistoryExportReply, HistoryTimeline, RecordingSource } from '../../shared/protocol';
import { historyUploadPath } from '../../shared/protocol/history-messages';
import { preloadGlobalName } from '../../shared/preload-api';
import { useServices } from './app-context';
import { messageOf } from './timeline-replay';
import { formatStamp } from './timeline-format';

/** Under Electron main has the OS file dialogs; in a browser files are downloaded and uploaded. */
const mainHasFileDialog = () => preloadGlobalName in window;

function Dialog(props: {
  readonly title: string;
  readonly testId: string;
  readonly onClose: () => void;
  readonly onSubmit: () => void;
  readonly busy: boolean;
  readonly submitLabel: string;
  readonly children: ReactNode;
}): ReactNode {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit();
  };
  return (
    <div className="overlay" role="presentation" onMouseDown={props.onClose}>
      <form
        className="history-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={props.title}
        data-testid={props.testId}
        onMouseDown={(event) => event.stopPropagation()}
        onSubmit={submit}
      >
        <h2>{props.title}</h2>
        {props.children}
        <div className="history-dialog-buttons">
          <button type="button" className="timeline-text-button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="primary-button" disabled={props.busy}>
            {props.busy ? 'Working…' : props.submitLabel}
          </button>
        </div>
      </form>
    </div>
  );
}

/** Lets the browser fetch main's one-time download address (same origin, session cookie). */
function download(url: string, name: string): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.click();
}

/** Uploads `file` to main; resolves with the token historyImport takes. */
async function upload(file: File): Promise<string> {
  const response = await fetch(`${historyUploadPath}?name=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    body: file,
    headers: { 'Content-Type': 'application/vnd.sqlite3' },
  });
  if (!response.ok) throw new Error(await response.text());
  return ((await response.json()) as { upload: string }).upload;
}

export interface ExportDialogProps {
  readonly timeline: HistoryTimeline;
  readonly gvr: GroupVersionResource;
  readonly kindTitle: string;
  readonly namespaces: readonly string[];
  readonly onClose: () => void;
}

export function ExportDialog(props: ExportDialogProps): ReactNode {
  const { bridge, view } = useServices();
  const recorded = props.timeline.range ?? { start: props.timeline.from, end: props.timeline.to };
  // A live recording keeps growing after the timeline was fetched: export up to the moment of export
  // (main and the window share one machine's clock).
  const range = {
    start: recorded.start,
    end: props.timeline.source.kind === 'live' ? Math.max(recorded.end, Date.now()) : recorded.end,
  };
  const [onlyKind, setOnlyKind] = useState(false);
  const [onlyNamespaces, setOnlyNamespaces] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const dialog = mainHasFileDialog();
  const submit = () => {
    setBusy(true);
    bridge
      .history<HistoryExportReply | null>({
        type: 'historyExport',
        from: range.start,
        to: range.end,
        destination: dialog ? 'dialog' : 'download',
        ...(onlyKind ? { gvrs: [props.gvr] } : {}),
        ...(onlyNamespaces && props.namespaces.length > 0 ? { namespaces: [...props.namespaces] } : {}),
      })
      .then(
        (reply) => {
          if (!reply) {
            setBusy(false);
            return;
          }
          if (reply.downloadUrl) download(reply.downloadUrl, reply.name);
          view.setState({
            notice: `Exported ${reply.changes.toLocaleString('en-US')} changes to ${reply.name}`,
          });
          props.onClose();
        },
        (failure: unknown) => {
          setBusy(false);
          setError(messageOf(failure));
        },
      );
  };
  return (
    <Dialog
      title="Export recording"
      testId="history-export"
      onClose={props.onClose}
      onSubmit={submit}
      busy={busy}
      submitLabel={dialog ? 'Save as…' : 'Download'}
    >
      <p className="muted">
        {formatStamp(range.start)} → {props.timeline.source.kind === 'live' ? 'now' : formatStamp(range.end)}
      </p>
      <label className="history-check">
        <input type="checkbox" checked={onlyKind} onChange={(event) => setOnlyKind(event.target.checked)} />
        Only {props.kindTitle}
      </label>
      <label className="history-check">
        <input
          type="checkbox"
          checked={onlyNamespaces}
          disabled={props.namespaces.length === 0}
          onChange={(event) => setOnlyNamespaces(event.target.checked)}
        />
        Only the selected namespaces{props.namespaces.length > 0 ? ` (${props.namespaces.join(', ')})` : ''}
      </label>
      {error && <p className="history-error">{error}</p>}
    </Dialog>
  );
}

export function ImportDialog(props: { readonly onClose: () => void }): ReactNode {
  const { bridge, view } = useServices();
  const [file, setFile] = useState<File | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const dialog = mainHasFileDialog();
  const submit = async () => {
    setBusy(true);
    try {
      const source = await bridge.history<RecordingSource | null>({
        type: 'historyImport',
        source: dialog ? 'dialog' : { upload: await upload(file!) },
      });
      if (!source) {
        setBusy(false);
        return;
      }
      const timeline = await bridge.history<HistoryTimeline>({ type: 'historyTimeline', buckets: 1 });
      view.setState({
        importedRecording: source.name ?? 'recording',
        travel: { time: timeline.range?.end ?? timeline.to, playing: false },
        selectedKey: undefined,
        detailOpen: false,
        notice:
          source.problems.length > 0
            ? `Opened ${source.name} with damage: ${source.problems[0]}`
            : `Opened ${source.name} (context ${source.context})`,
      });
      props.onClose();
    } catch (failure) {
      setBusy(false);
      setError(messageOf(failure));
    }
  };
  return (
    <Dialog
      title="Open a recording"
      testId="history-import"
      onClose={props.onClose}
      onSubmit={() => void submit()}
      busy={busy || (!dialog && !file)}
      submitLabel={dialog ? 'Choose file…' : 'Open'}
    >
      <p className="muted">
        Shows a recording read-only, without a cluster. The live cluster comes back with “Close recording”.
      </p>
      {!dialog && (
        <label className="history-field">
          Recording file
          <input
            type="file"
            accept=".kubetide"
            data-testid="history-import-file"
            onChange={(event) => setFile(event.target.files?.[0])}
          />
        </label>
      )}
      {error && <p className="history-error">{error}</p>}
    </Dialog>
  );
}
