// Export and import of recordings. Export writes a time range (optionally only some of the recorded
// kinds, or the namespaces picked) to a file the user chooses: in main's save dialog under Electron, as a browser
// download in browser mode. Import opens a recording read-only and shows it in place of the cluster,
// at its last moment: picked in main's open dialog, or uploaded from the browser. The page never
// names a path on main's machine.
import { useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { gvrKey, parseGvrKey } from '../../shared/kube/object';
import type { GroupVersionResource } from '../../shared/kube/object';
import type { HistoryTimeline, RecordingSource } from '../../shared/protocol';
import { historyUploadPath } from '../../shared/protocol/history-messages';
import { preloadGlobalName } from '../../shared/preload-api';
import { useServices } from './app-context';
import { messageOf } from './message-of';
import { formatStamp } from './timeline-format';

/** Under Electron main has the OS file dialogs; in a browser files are downloaded and uploaded. */
const mainHasFileDialog = () => preloadGlobalName in window;

function Dialog(props: {
  readonly title: string;
  readonly testId: string;
  readonly onClose: () => void;
  readonly onSubmit: () => void;
  /** The submit button is disabled. */
  readonly busy: boolean;
  /** The request runs: its button says so (Cancel then stops it). */
  readonly working?: boolean;
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
            {(props.working ?? props.busy) ? 'Working…' : props.submitLabel}
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
  /** The catalog's kinds, for the titles of the recorded ones. */
  readonly kinds: readonly { readonly gvr: GroupVersionResource; readonly title: string }[];
  readonly namespaces: readonly string[];
  readonly onClose: () => void;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** `time` as a datetime-local input's value (local time, to the second). */
function localInput(time: number): string {
  const date = new Date(time);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** A datetime-local value (local time) as ms since the epoch; undefined when it is not a moment. */
function fromLocalInput(value: string): number | undefined {
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : time;
}

/**
 * Exports a time range (the recording's span unless changed) of the recorded kinds ticked, and
 * optionally only the namespaces selected, in main's export worker: its progress is shown as it
 * runs, and Cancel stops it (main then leaves no file of it).
 */
export function ExportDialog(props: ExportDialogProps): ReactNode {
  const { bridge, view } = useServices();
  const recorded = props.timeline.range ?? { start: props.timeline.from, end: props.timeline.to };
  // A live recording keeps growing after the timeline was fetched: export up to the moment of export
  // (main and the window share one machine's clock). The inputs hold whole seconds, so the span is
  // widened to them rather than cut.
  const [from, setFrom] = useState(() => Math.floor(recorded.start / 1000) * 1000);
  const [to, setTo] = useState(() =>
    props.timeline.source.kind === 'live' ? undefined : Math.ceil(recorded.end / 1000) * 1000,
  );
  const recordedKinds = useMemo(
    () =>
      Object.keys(props.timeline.density)
        .sort()
        .map((key) => {
          const known = props.kinds.find((kind) => gvrKey(kind.gvr) === key);
          return { key, gvr: known?.gvr ?? parseGvrKey(key), title: known?.title ?? key };
        }),
    [props.timeline.density, props.kinds],
  );
  const [excludedKinds, setExcludedKinds] = useState<ReadonlySet<string>>(new Set());
  const [onlyNamespaces, setOnlyNamespaces] = useState(false);
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const running = useRef<{ cancel(): void } | undefined>(undefined);
  const dialog = mainHasFileDialog();
  const end = to ?? Date.now();
  const kindsLeft = recordedKinds.filter((kind) => !excludedKinds.has(kind.key));
  const invalid =
    from > end
      ? 'The range ends before it starts.'
      : kindsLeft.length === 0
        ? 'Tick at least one kind.'
        : undefined;
  const submit = () => {
    if (running.current || invalid) return;
    setError(undefined);
    setProgress(0);
    const exporting = bridge.exportHistory(
      {
        type: 'historyExport',
        from,
        to: to ?? Date.now(),
        destination: dialog ? 'dialog' : 'download',
        ...(excludedKinds.size > 0 ? { gvrs: kindsLeft.map((kind) => kind.gvr) } : {}),
        ...(onlyNamespaces && props.namespaces.length > 0 ? { namespaces: [...props.namespaces] } : {}),
      },
      setProgress,
    );
    running.current = exporting;
    exporting.reply.then(
      (reply) => {
        running.current = undefined;
        setProgress(undefined);
        if (!reply) return;
        if (reply.downloadUrl) download(reply.downloadUrl, reply.name);
        view.setState({
          notice: `Exported ${reply.changes.toLocaleString('en-US')} changes to ${reply.name}`,
        });
        props.onClose();
      },
      (failure: unknown) => {
        running.current = undefined;
        setProgress(undefined);
        setError(messageOf(failure));
      },
    );
  };
  const close = () => {
    // Closing the dialog while it runs is a cancel: main stops the export and removes what it wrote.
    if (running.current) {
      running.current.cancel();
      view.setState({ notice: 'Export cancelled: no file was written' });
    }
    props.onClose();
  };
  const toggleKind = (key: string, included: boolean) =>
    setExcludedKinds((excluded) => {
      const next = new Set(excluded);
      if (included) next.delete(key);
      else next.add(key);
      return next;
    });
  return (
    <Dialog
      title="Export recording"
      testId="history-export"
      onClose={close}
      onSubmit={submit}
      busy={progress !== undefined || invalid !== undefined}
      working={progress !== undefined}
      submitLabel={dialog ? 'Save as…' : 'Download'}
    >
      <div className="history-range">
        <label className="history-field">
          From
          <input
            type="datetime-local"
            step={1}
            data-testid="history-export-from"
            value={localInput(from)}
            onChange={(event) => {
              const time = fromLocalInput(event.target.value);
              if (time !== undefined) setFrom(time);
            }}
          />
        </label>
        <label className="history-field">
          To (empty: now)
          <input
            type="datetime-local"
            step={1}
            data-testid="history-export-to"
            value={to === undefined ? '' : localInput(to)}
            placeholder="now"
            onChange={(event) => setTo(fromLocalInput(event.target.value))}
          />
        </label>
      </div>
      <p className="muted">
        {formatStamp(from)} → {to === undefined ? 'now (the recording goes on)' : formatStamp(to)}
      </p>
      <fieldset className="history-kinds" data-testid="history-export-kinds">
        <legend>Kinds</legend>
        {recordedKinds.map((kind) => (
          <label key={kind.key} className="history-check">
            <input
              type="checkbox"
              data-kind={kind.key}
              checked={!excludedKinds.has(kind.key)}
              onChange={(event) => toggleKind(kind.key, event.target.checked)}
            />
            {kind.title}
          </label>
        ))}
      </fieldset>
      <label className="history-check">
        <input
          type="checkbox"
          checked={onlyNamespaces}
          disabled={props.namespaces.length === 0}
          onChange={(event) => setOnlyNamespaces(event.target.checked)}
        />
        Only the selected namespaces{props.namespaces.length > 0 ? ` (${props.namespaces.join(', ')})` : ''}
      </label>
      {progress !== undefined && (
        <p className="muted" role="status" data-testid="history-export-progress">
          {progress === 0 ? 'exporting…' : `exported ${progress.toLocaleString('en-US')} changes…`}
        </p>
      )}
      {(error ?? invalid) && <p className="history-error">{error ?? invalid}</p>}
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
