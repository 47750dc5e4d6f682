// Export and import of recordings. Export writes a time range (optionally only the kind shown, or the
// namespaces picked) to a file on main's machine and, in a browser, also downloads it; import opens a
// recording file read-only and shows it in place of the cluster, at its last moment.
import { useState, type FormEvent, type ReactNode } from 'react';
import type { GroupVersionResource } from '../../shared/kube/object';
import type { HistoryExportReply, HistoryTimeline, RecordingSource } from '../../shared/protocol';
import { preloadGlobalName } from '../../shared/preload-api';
import { useServices } from './app-context';
import { messageOf } from './timeline-replay';
import { formatStamp } from './timeline-format';

/** The last file exported in this window, offered first on import. */
let lastExportPath = '';

/** Under Electron main has the OS file dialogs; in a browser the path is typed. */
const mainHasFileDialog = () => preloadGlobalName in window;

function Dialog(props: {
  readonly title: string;
  readonly testId: string;
  readonly onClose: () => void;
  readonly onSubmit: () => void;
  readonly busy: boolean;
  readonly submitLabel: string;
  /** A button that lets main's own file dialog choose the file (Electron). */
  readonly onPick?: () => void;
  readonly pickLabel?: string;
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
          {props.onPick && (
            <button type="button" className="timeline-text-button" onClick={props.onPick}>
              {props.pickLabel}
            </button>
          )}
          <button type="submit" className="primary-button" disabled={props.busy}>
            {props.busy ? 'Working…' : props.submitLabel}
          </button>
        </div>
      </form>
    </div>
  );
}

/** Hands `base64` to the browser as a file download. */
function download(base64: string, name: string): void {
  const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/vnd.sqlite3' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
  const [path, setPath] = useState('');
  const [onlyKind, setOnlyKind] = useState(false);
  const [onlyNamespaces, setOnlyNamespaces] = useState(false);
  const [alsoDownload, setAlsoDownload] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = (pick = false) => {
    setBusy(true);
    bridge
      .history<HistoryExportReply | null>({
        type: 'historyExport',
        from: range.start,
        to: range.end,
        download: alsoDownload && !pick,
        ...(pick ? { pick } : {}),
        ...(path.trim() ? { path: path.trim() } : {}),
        ...(onlyKind ? { gvrs: [props.gvr] } : {}),
        ...(onlyNamespaces && props.namespaces.length > 0 ? { namespaces: [...props.namespaces] } : {}),
      })
      .then(
        (reply) => {
          if (!reply) {
            setBusy(false);
            return;
          }
          lastExportPath = reply.path;
          if (reply.download) download(reply.download, reply.path.split(/[\\/]/).pop() ?? 'recording');
          view.setState({
            notice: `Exported ${reply.changes.toLocaleString('en-US')} changes to ${reply.path}`,
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
      onSubmit={() => submit()}
      busy={busy}
      submitLabel="Export"
      {...(mainHasFileDialog() ? { onPick: () => submit(true), pickLabel: 'Save as…' } : {})}
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
      <label className="history-field">
        File on this computer
        <input
          data-testid="history-export-path"
          value={path}
          placeholder="default: the exports folder of the data directory"
          onChange={(event) => setPath(event.target.value)}
        />
      </label>
      <label className="history-check">
        <input
          type="checkbox"
          checked={alsoDownload}
          onChange={(event) => setAlsoDownload(event.target.checked)}
        />
        Also download it through the browser
      </label>
      {error && <p className="history-error">{error}</p>}
    </Dialog>
  );
}

export function ImportDialog(props: { readonly onClose: () => void }): ReactNode {
  const { bridge, view } = useServices();
  const [path, setPath] = useState(lastExportPath);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = async (pick = false) => {
    setBusy(true);
    try {
      const source = await bridge.history<RecordingSource | null>({
        type: 'historyImport',
        ...(path.trim() ? { path: path.trim() } : {}),
        ...(pick ? { pick } : {}),
      });
      if (!source) {
        setBusy(false);
        return;
      }
      const timeline = await bridge.history<HistoryTimeline>({ type: 'historyTimeline', buckets: 1 });
      view.setState({
        importedRecording: source.name ?? path.trim(),
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
      busy={busy || path.trim() === ''}
      submitLabel="Open"
      {...(mainHasFileDialog() ? { onPick: () => void submit(true), pickLabel: 'Choose file…' } : {})}
    >
      <p className="muted">
        Shows a recording read-only, without a cluster. The live cluster comes back with “Close recording”.
      </p>
      <label className="history-field">
        Recording file on this computer
        <input
          data-testid="history-import-path"
          value={path}
          placeholder="/path/to/recording.kubetide"
          onChange={(event) => setPath(event.target.value)}
        />
      </label>
      {error && <p className="history-error">{error}</p>}
    </Dialog>
  );
}
