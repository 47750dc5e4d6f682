// A log view: the detail pane's Logs tab, and the full-height view `l` opens. A pod shows one container
// at a time (picker: every container, init and ephemeral ones included); a workload shows all its
// pods' containers merged by time with a coloured pod/container column, like stern. The list is
// virtualized over the session's LogBuffer, so a million lines cost only the rows on screen; past the
// buffer's cap the oldest lines go, and the view says how many.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { KubeObject } from '../../../shared/kube/object';
import type { LogOptions } from '../../../shared/protocol/log-messages';
import { LogMatches, compileQuery, matchRanges } from '../../store/log-search';
import { isTextField } from '../../ui-state/keyboard';
import { useServices } from '../app-context';
import { stripAnsi } from './ansi';
import { downloadText, logText } from './log-download';
import { LogLine } from './log-line';
import type { ContainerChoice, LogSubject } from './log-subject';
import { containerChoices, defaultContainer, logSubjectTitle, logTargetOf } from './log-subject';
import { LogToolbar, type LogSettings } from './log-toolbar';
import { useLogStream } from './use-log-stream';

export interface LogViewProps {
  readonly subject: LogSubject;
  /** The full-height view (`l`); the detail pane's tab otherwise. */
  readonly fullHeight?: boolean;
  readonly onExpand?: () => void;
  readonly onClose?: () => void;
}

const lineHeight = 18;
const podsResource = { group: '', version: 'v1', resource: 'pods' };
export const defaultLogSettings: LogSettings = {
  follow: true,
  previous: false,
  timestamps: false,
  wrap: false,
  tailLines: 1000,
  sinceSeconds: undefined,
  capacity: 1_000_000,
  search: '',
  regex: false,
  onlyMatching: false,
};

type Json = Record<string, unknown>;

/** The containers a subject's pods have, from the pod or the workload's pod template. */
function useContainers(subject: LogSubject): { choices: ContainerChoice[]; initial: string | undefined } {
  const { bridge } = useServices();
  const [found, setFound] = useState<{ choices: ContainerChoice[]; initial: string | undefined }>({
    choices: [],
    initial: undefined,
  });
  const key = JSON.stringify(subject);
  useEffect(() => {
    // A selector's pods may each have other containers: the view reads them all.
    if (subject.kind === 'selector') return;
    let cancelled = false;
    const gvr = subject.kind === 'pod' ? podsResource : subject.gvr;
    bridge.getObject(gvr, subject.namespace, subject.name).then(
      (object: KubeObject) => {
        if (cancelled) return;
        const spec = object.spec as Json | undefined;
        const podSpec = subject.kind === 'pod' ? spec : ((spec?.template as Json | undefined)?.spec as Json);
        const choices = containerChoices(podSpec);
        setFound({
          choices,
          initial: subject.kind === 'pod' ? defaultContainer(object.metadata as Json, choices) : undefined,
        });
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [bridge, key]);
  return found;
}

export function LogView(props: LogViewProps): ReactNode {
  const { bridge } = useServices();
  const { subject } = props;
  const containers = useContainers(subject);
  const [picked, setPicked] = useState<string | undefined>();
  const container = picked ?? containers.initial;
  const [settings, setSettings] = useState<LogSettings>(defaultLogSettings);
  const update = (change: Partial<LogSettings>) => setSettings((current) => ({ ...current, ...change }));

  const options: LogOptions = {
    follow: !settings.previous,
    previous: settings.previous,
    ...(settings.tailLines !== undefined ? { tailLines: settings.tailLines } : {}),
    ...(settings.sinceSeconds !== undefined ? { sinceSeconds: settings.sinceSeconds } : {}),
  };
  const target = logTargetOf(subject, container);
  const { session, revision } = useLogStream(bridge, target, options, settings.capacity);
  const { buffer } = session;

  const compiled = useMemo(
    () => (settings.search ? compileQuery({ text: settings.search, regex: settings.regex }) : undefined),
    [settings.search, settings.regex],
  );
  const matches = useMemo(
    () => (compiled?.ok ? new LogMatches(buffer, compiled.pattern, stripAnsi) : undefined),
    [buffer, compiled],
  );
  matches?.update();
  const [currentMatch, setCurrentMatch] = useState<number | undefined>();
  const onlyMatching = settings.onlyMatching && matches !== undefined;
  const rowCount = onlyMatching ? matches.count : buffer.length;
  const indexOfRow = (row: number) => (onlyMatching ? matches.index(row) : row);

  const scrollRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => lineHeight,
    overscan: 20,
  });

  useEffect(() => {
    if (settings.follow && !session.paused && rowCount > 0)
      virtualizer.scrollToIndex(rowCount - 1, { align: 'end' });
  }, [revision, settings.follow, rowCount]);

  const goToMatch = (forward: boolean) => {
    if (!matches || matches.count === 0) return;
    const from =
      currentMatch !== undefined
        ? matches.index(currentMatch) + (forward ? 1 : 0)
        : forward
          ? 0
          : buffer.length;
    const ordinal = matches.next(Math.min(from, buffer.length), forward);
    if (ordinal === undefined) return;
    setCurrentMatch(ordinal);
    update({ follow: false });
    virtualizer.scrollToIndex(onlyMatching ? ordinal : matches.index(ordinal), { align: 'center' });
  };

  const togglePause = () => {
    if (session.paused) session.resume();
    else session.pause();
  };

  const download = () => {
    const rows = Array.from({ length: rowCount }, (_, row) => indexOfRow(row));
    const base = subject.kind === 'selector' ? 'pods' : subject.name;
    const name = `${base}${container ? `-${container}` : ''}${settings.previous ? '-previous' : ''}.log`;
    downloadText(name, logText(session, rows, settings.timestamps, subject.kind !== 'pod'));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target === searchRef.current) {
      if (event.key === 'Enter') goToMatch(!event.shiftKey);
      else if (event.key === 'Escape') searchRef.current?.blur();
      else return;
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    if (isTextField(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    const actions: Record<string, () => void> = {
      '/': () => searchRef.current?.focus(),
      n: () => goToMatch(true),
      N: () => goToMatch(false),
      f: () => update({ follow: !settings.follow }),
      s: togglePause,
      w: () => update({ wrap: !settings.wrap }),
      t: () => update({ timestamps: !settings.timestamps }),
      p: () => update({ previous: !settings.previous }),
    };
    const action = actions[event.key];
    if (!action) return;
    action();
    event.preventDefault();
    event.stopPropagation();
  };

  const currentIndex =
    matches && currentMatch !== undefined && currentMatch < matches.count ? matches.index(currentMatch) : -1;
  const lastNote = session.notes.at(-1);
  return (
    <section
      className={`log-view${props.fullHeight ? ' full-height' : ''}${settings.wrap ? ' wrap' : ''}`}
      aria-label={`Logs of ${logSubjectTitle(subject).join(' ')}`}
      data-testid="log-view"
      onKeyDown={onKeyDown}
    >
      <LogToolbar
        subject={subject}
        settings={settings}
        paused={session.paused}
        waiting={session.waiting}
        choices={containers.choices}
        container={container}
        onContainer={setPicked}
        onChange={update}
        onTogglePause={togglePause}
        searchRef={searchRef}
        searchError={compiled && !compiled.ok ? compiled.error : undefined}
        matchCount={matches?.count}
        currentMatch={currentMatch}
        onNextMatch={() => goToMatch(true)}
        onPreviousMatch={() => goToMatch(false)}
        onDownload={download}
        {...(props.onExpand ? { onExpand: props.onExpand } : {})}
        {...(props.onClose ? { onClose: props.onClose } : {})}
      />
      {(buffer.dropped > 0 || lastNote) && (
        <div className="log-notes" role="status" data-testid="log-notes">
          {buffer.dropped > 0 && (
            <span className="log-note">
              {buffer.dropped.toLocaleString('en-US')} older lines dropped: the view keeps the newest{' '}
              {buffer.capacity.toLocaleString('en-US')}
            </span>
          )}
          {lastNote && (
            <span className={`log-note note-${lastNote.kind}`} data-testid="log-note">
              {noteSource(session, lastNote.source)}
              {lastNote.message}
            </span>
          )}
        </div>
      )}
      <div className="log-lines" ref={scrollRef} tabIndex={0} data-testid="log-lines" data-count={rowCount}>
        {rowCount === 0 ? (
          <div className="log-empty">
            {target ? (onlyMatching ? 'No line matches.' : 'No lines yet.') : 'Loading…'}
          </div>
        ) : (
          <div className="log-spacer" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const index = indexOfRow(item.index);
              const text = buffer.text(index);
              const source = session.sources.get(buffer.source(index));
              return (
                <div
                  key={item.key}
                  ref={settings.wrap ? virtualizer.measureElement : undefined}
                  data-index={item.index}
                  className="log-row"
                  role="row"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  <LogLine
                    text={text}
                    {...(settings.timestamps
                      ? { timestamp: new Date(buffer.time(index)).toISOString() }
                      : {})}
                    {...(subject.kind !== 'pod' && source
                      ? { source: { label: `${source.pod} ${source.container}`, colour: source.colour } }
                      : {})}
                    {...(matches ? { highlights: matchRanges(stripAnsi(text), matches.pattern) } : {})}
                    current={index === currentIndex}
                  />
                </div>
              );
            })}
          </div>
        )}
      </div>
    </section>
  );
}

function noteSource(
  session: { sources: Map<number, { pod: string; container: string }> },
  id?: number,
): string {
  const source = id === undefined ? undefined : session.sources.get(id);
  return source ? `${source.pod}/${source.container}: ` : '';
}
