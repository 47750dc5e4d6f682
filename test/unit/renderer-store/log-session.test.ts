// LogSession: sources coloured by pod, notes kept, and pause holding lines aside until resume.
import { describe, expect, it } from 'vitest';
import { LogSession } from '../../../renderer/store/log-session';

const lines = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => ({
    source: 1,
    time: from + index,
    timestamp: '',
    text: `line ${from + index}`,
  }));

describe('LogSession', () => {
  it('gives the containers of one pod one colour, and keeps a source gone with its pod', () => {
    const session = new LogSession(10);
    session.receive({
      type: 'logSources',
      streamId: 's',
      added: [
        { id: 1, namespace: 'shop', pod: 'web-1', container: 'app' },
        { id: 2, namespace: 'shop', pod: 'web-1', container: 'sidecar' },
      ],
      removed: [],
    });
    expect(session.sources.get(1)!.colour).toBe(session.sources.get(2)!.colour);
    session.receive({ type: 'logSources', streamId: 's', added: [], removed: [2] });
    expect(session.sources.get(2)!.live).toBe(false);
  });

  it('holds lines while paused and applies them on resume, never more than its capacity twice', () => {
    const session = new LogSession(100);
    session.receive({ type: 'logLines', streamId: 's', lines: lines(0, 10) });
    session.pause();
    session.receive({ type: 'logLines', streamId: 's', lines: lines(10, 10) });
    expect(session.buffer.length).toBe(10);
    expect(session.waiting).toBe(10);
    for (let batch = 0; batch < 30; batch++)
      session.receive({ type: 'logLines', streamId: 's', lines: lines(20 + batch * 10, 10) });
    expect(session.waiting).toBeLessThanOrEqual(200);
    session.resume();
    expect(session.waiting).toBe(0);
    expect(session.buffer.length).toBe(100);
    expect(session.buffer.text(99)).toBe('line 319');
    expect(session.buffer.dropped).toBe(220);
  });
});
