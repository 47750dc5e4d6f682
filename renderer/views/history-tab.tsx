// The detail pane's History tab: every recorded version of the object (deleted incarnations included)
// with its kind of change and time, and the YAML diff between any two of them (managedFields excluded),
// the older one's removed lines red, the newer one's added lines green.
import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { GroupVersionResource } from '../../shared/kube/object';
import type { HistoryDiffLine } from '../../shared/protocol';
import { useServices } from './app-context';
import { formatStamp } from './timeline-format';
import { ObjectHistoryModel } from './object-history-model';

export interface HistoryTabProps {
  readonly gvr: GroupVersionResource;
  readonly namespace: string;
  readonly name: string;
  /** Refetches when it moves (a live object changed). */
  readonly revision: string | undefined;
  readonly onTravel: (time: number) => void;
}

/** Unchanged lines shown around each change; longer unchanged runs fold. */
const context = 3;

type DiffItem = HistoryDiffLine | { kind: 'fold'; count: number };

/** Keeps `context` unchanged lines around changes and folds the rest. */
export function foldDiff(lines: readonly HistoryDiffLine[]): DiffItem[] {
  const near = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (let offset = -context; offset <= context; offset++) {
      if (index + offset >= 0 && index + offset < lines.length) near[index + offset] = true;
    }
  });
  const items: DiffItem[] = [];
  let folded = 0;
  lines.forEach((line, index) => {
    if (near[index]) {
      if (folded > 0) items.push({ kind: 'fold', count: folded });
      folded = 0;
      items.push(line);
    } else folded++;
  });
  if (folded > 0) items.push({ kind: 'fold', count: folded });
  return items;
}

/**
 * The line above the diff: what to do, or what the two picked versions differ by. With one version
 * recorded there is no second to pick, and asking for one read as if a version were missing.
 */
export function diffHeader(
  versions: number,
  paired: boolean,
  diff: readonly HistoryDiffLine[] | undefined,
): string {
  if (versions === 1) return 'One version recorded so far: nothing to compare yet.';
  if (!paired) return 'Pick two versions to compare.';
  if (!diff) return 'Comparing…';
  const changed = diff.filter((line) => line.kind !== 'same').length;
  return `${changed} changed line${changed === 1 ? '' : 's'} between the two selected versions`;
}

export function HistoryTab(props: HistoryTabProps): ReactNode {
  const { bridge } = useServices();
  // Holds nothing to release: an answer arriving after unmount updates a model no one listens to.
  const [model] = useState(() => new ObjectHistoryModel(bridge));
  const { versions, picked, diff, error } = useSyncExternalStore(
    (listener) => model.subscribe(listener),
    () => model.state,
  );
  // The model compares values: a re-render with an equal object (a new gvr object of the same kind
  // after a kinds push) and revision asks main nothing.
  useEffect(() => {
    model.show({ gvr: props.gvr, namespace: props.namespace, name: props.name }, props.revision);
  });
  const [olderId, newerId] = model.pair() ?? [];
  const pick = (id: number) => model.pick(id);

  if (error) return <div className="detail-message error">Cannot read the history: {error}</div>;
  if (!versions) return <div className="detail-message">Loading…</div>;
  if (versions.length === 0) {
    return <div className="detail-message">Nothing recorded for this object yet.</div>;
  }
  return (
    <div className="history-tab" data-testid="history-tab">
      <ol className="history-versions" aria-label="Versions">
        {[...versions].reverse().map((version) => {
          const selected = picked.includes(version.id);
          return (
            <li key={version.id}>
              <button
                type="button"
                className={`history-version${selected ? ' selected' : ''}`}
                data-testid="history-version"
                aria-pressed={selected}
                title="Compare this version"
                onClick={() => pick(version.id)}
              >
                <span className={`change-type change-${version.type.toLowerCase()}`}>
                  {version.finalStateUnknown ? 'Deleted?' : version.type}
                </span>
                <span className="history-time">{formatStamp(version.time)}</span>
                <span className="history-rv muted">rv {version.resourceVersion || '–'}</span>
              </button>
              <button
                type="button"
                className="history-travel"
                title="Show the cluster at this moment"
                aria-label={`Travel to ${formatStamp(version.time)}`}
                onClick={() => props.onTravel(version.time)}
              >
                ⟲
              </button>
            </li>
          );
        })}
      </ol>
      <div className="history-diff-header">
        {diffHeader(versions.length, olderId !== undefined && newerId !== undefined, diff)}
      </div>
      {diff && (
        <pre className="history-diff" data-testid="history-diff">
          {foldDiff(diff).map((item, index) =>
            item.kind === 'fold' ? (
              <div key={index} className="diff-line diff-fold">
                ⋯ {item.count} unchanged line{item.count === 1 ? '' : 's'}
              </div>
            ) : (
              <div key={index} className={`diff-line diff-${item.kind}`}>
                <span className="diff-sign">
                  {item.kind === 'added' ? '+' : item.kind === 'removed' ? '−' : ' '}
                </span>
                {item.text}
              </div>
            ),
          )}
        </pre>
      )}
    </div>
  );
}
