// The Logs tab while travelling: logs are live only, but the last logs of a pod's container runs
// that ended were kept in the recording at each crash (issue 14), so the past moment shows those
// recorded at or before it, newest first, even for a pod that is gone today. The text is bounded
// (256 KiB, 5,000 lines) when recorded, so it is laid out whole, with its SGR colours.
import { useEffect, useState, type ReactNode } from 'react';
import type { RecordedCrashLog } from '../../../shared/protocol';
import { useServices } from '../app-context';
import { formatClock, formatStamp } from '../timeline-format';
import { LogLine } from './log-line';

type Loaded =
  { state: 'loading' } | { state: 'loaded'; logs: RecordedCrashLog[] } | { state: 'failed'; message: string };

export function CrashLogs(props: { readonly uid: string; readonly time: number }): ReactNode {
  const { bridge } = useServices();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    let cancelled = false;
    bridge.history<RecordedCrashLog[]>({ type: 'historyCrashLogs', uid: props.uid, time: props.time }).then(
      (logs) => !cancelled && setLoaded({ state: 'loaded', logs }),
      (error: unknown) =>
        !cancelled &&
        setLoaded({ state: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      cancelled = true;
    };
  }, [bridge, props.uid, props.time]);

  if (loaded.state === 'loading')
    return <div className="detail-message">Reading the recorded crash logs...</div>;
  if (loaded.state === 'failed') return <div className="detail-message error">{loaded.message}</div>;
  if (loaded.logs.length === 0)
    return (
      <div className="detail-message">
        Logs are live only, and no container of this pod had crashed by this moment: go back to live to read
        them.
      </div>
    );
  return (
    <div className="crash-logs">
      {loaded.logs.map((log) => (
        <section className="crash-log" key={`${log.time} ${log.container} ${log.containerId}`}>
          <header className="crash-log-title" title={log.containerId}>
            <strong>{log.container}</strong>: logs of the run that ended
            {log.finishedAt ? ` at ${formatClock(Date.parse(log.finishedAt))}` : ''}
            {describeEnd(log)}, recorded at the crash ({formatStamp(log.time)})
            {log.truncated ? '; only its last lines were kept' : ''}
          </header>
          {log.problem ? (
            <div className="detail-message">{log.problem}</div>
          ) : (
            <pre className="crash-log-text">
              {log.logs
                ? log.logs
                    .replace(/\n$/, '')
                    .split('\n')
                    .map((line, index) => (
                      <div key={index}>
                        <LogLine text={line} />
                      </div>
                    ))
                : '(the run wrote nothing)'}
            </pre>
          )}
        </section>
      ))}
    </div>
  );
}

/** " (Error, exit code 1)": how the kubelet said the run ended. */
function describeEnd(log: RecordedCrashLog): string {
  const parts = [log.reason, log.exitCode === undefined ? '' : `exit code ${log.exitCode}`].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}
