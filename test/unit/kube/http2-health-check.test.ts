// The HTTP/2 health check's timing, on a fake clock and a scripted session: a PING after 30 s without
// a byte read, the connection lost 15 s later if it goes unanswered, never while PINGs are answered.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { Http2HealthCheck, http2HealthSettings } from '../../../main/kube/http2-health-check';
import type { PingableSession } from '../../../main/kube/http2-health-check';

const production = { readIdleTimeoutMs: 30_000, pingTimeoutMs: 15_000 };

/** A session whose bytes and PING answers the test scripts. */
function scriptedSession() {
  const session = {
    bytes: 0,
    pings: [] as ((error: Error | null) => void)[],
    bytesRead: () => session.bytes,
    ping(acknowledged: (error: Error | null) => void) {
      session.pings.push(acknowledged);
    },
  };
  return session satisfies PingableSession;
}

function start(session: PingableSession, clock: FakeClock) {
  const lost: string[] = [];
  const check = new Http2HealthCheck(session, clock, production, (reason) => lost.push(reason));
  return { check, lost };
}

describe('Http2HealthCheck', () => {
  it('sends a PING after 30 s without a byte read and reports the connection lost 15 s later', () => {
    const clock = new FakeClock();
    const session = scriptedSession();
    const { lost } = start(session, clock);
    clock.step(29_999);
    expect(session.pings).toHaveLength(0);
    clock.step(1);
    expect(session.pings).toHaveLength(1);
    clock.step(14_999);
    expect(lost).toEqual([]);
    clock.step(1);
    expect(lost).toEqual(['no frame read for 30 s and no answer to a PING within 15 s']);
    clock.step(600_000);
    expect(session.pings).toHaveLength(1);
    expect(lost).toHaveLength(1);
  });

  it('counts idleness from the last byte read, to within its one-second sampling', () => {
    const clock = new FakeClock();
    const session = scriptedSession();
    start(session, clock);
    clock.step(20_000);
    session.bytes += 9;
    clock.step(30_000);
    expect(session.pings).toHaveLength(0);
    clock.step(1_000);
    expect(session.pings).toHaveLength(1);
  });

  it('never reports a connection whose PINGs are answered, however long it is silent', () => {
    const clock = new FakeClock();
    const session = scriptedSession();
    const { lost } = start(session, clock);
    for (let second = 0; second < 24 * 60 * 60; second += 5) {
      clock.step(5_000);
      // The ACK is a frame read: it arrives a moment after the PING.
      for (const acknowledge of session.pings.splice(0)) {
        session.bytes += 17;
        acknowledge(null);
      }
    }
    expect(lost).toEqual([]);
  });

  it('sends nothing once stopped', () => {
    const clock = new FakeClock();
    const session = scriptedSession();
    const { check, lost } = start(session, clock);
    check.stop();
    clock.step(120_000);
    expect(session.pings).toHaveLength(0);
    expect(lost).toEqual([]);
    expect(clock.waiterCount()).toBe(0);
  });

  it('reads its timings from the environment as client-go does, keeping the default for nonsense', () => {
    expect(http2HealthSettings({})).toEqual(production);
    expect(
      http2HealthSettings({ HTTP2_READ_IDLE_TIMEOUT_SECONDS: '5', HTTP2_PING_TIMEOUT_SECONDS: '2' }),
    ).toEqual({ readIdleTimeoutMs: 5_000, pingTimeoutMs: 2_000 });
    expect(http2HealthSettings({ HTTP2_READ_IDLE_TIMEOUT_SECONDS: 'soon' }).readIdleTimeoutMs).toBe(30_000);
  });

  it('is off with a read-idle timeout of 0', () => {
    const clock = new FakeClock();
    const session = scriptedSession();
    new Http2HealthCheck(session, clock, { readIdleTimeoutMs: 0, pingTimeoutMs: 15_000 }, () => undefined);
    clock.step(3_600_000);
    expect(session.pings).toHaveLength(0);
    expect(clock.waiterCount()).toBe(0);
  });
});
