// A login plugin's run is told only once it lasts, with what it printed (terminal controls removed),
// and its end is told; a quick run (a token refresh) is never told.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { announceAfterMs, ExecPluginRunReport } from '../../../main/kube/exec-plugin-run';
import type { ExecPluginRun } from '../../../main/kube/exec-plugin-run';

describe('ExecPluginRunReport', () => {
  it('never tells a run that ends within announceAfterMs', () => {
    const clock = new FakeClock(1_000);
    const told: (ExecPluginRun | undefined)[] = [];
    const report = new ExecPluginRunReport('/usr/local/bin/aws', clock, (run) => told.push(run));
    report.printed('refreshing\n');
    clock.step(announceAfterMs - 1);
    report.ended();
    clock.step(announceAfterMs);
    expect(told).toEqual([]);
  });

  it('tells a run that lasts, each thing it prints, and its end', () => {
    const clock = new FakeClock(1_000);
    const told: (ExecPluginRun | undefined)[] = [];
    const report = new ExecPluginRunReport('C:\\tools\\kubelogin.exe', clock, (run) => told.push(run));
    report.printed('\x1b[1;33mTo sign in\x1b[0m, use a web browser to open ');
    clock.step(announceAfterMs);
    expect(told).toEqual([
      { command: 'kubelogin.exe', since: 1_000, message: 'To sign in, use a web browser to open' },
    ]);
    report.printed(
      '\x1b]8;;https://microsoft.com/devicelogin\x07https://microsoft.com/devicelogin\x1b]8;;\x07 and enter the code F8NJ2LBX8\n',
    );
    expect(told.at(-1)?.message).toBe(
      'To sign in, use a web browser to open https://microsoft.com/devicelogin and enter the code F8NJ2LBX8',
    );
    report.ended();
    expect(told.at(-1)).toBeUndefined();
    expect(told).toHaveLength(3);
  });

  it('hides what is shaped like a credential, and keeps the words around it', () => {
    const clock = new FakeClock(0);
    const told: (ExecPluginRun | undefined)[] = [];
    const report = new ExecPluginRunReport('kubelogin', clock, (run) => told.push(run));
    clock.step(announceAfterMs);
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJqYW5lIn0.c2lnbmF0dXJlLWJ5dGVz';
    report.printed(
      [
        'enter the code F8NJ2LBX8; the token expired, refreshing',
        `got ${jwt}`,
        'Authorization: Bearer s3cr3t-0123456789',
        'access_token=abcdefghijklmnop refresh_token: "qrstuvwxyz012345"',
        'client_secret=short',
      ].join('\n'),
    );
    expect(told.at(-1)?.message).toBe(
      [
        'enter the code F8NJ2LBX8; the token expired, refreshing',
        'got [hidden]',
        'Authorization: [hidden]',
        '[hidden] [hidden]',
        'client_secret=short',
      ].join('\n'),
    );
  });

  it('keeps the last 2 KiB of what it printed', () => {
    const clock = new FakeClock(0);
    const told: (ExecPluginRun | undefined)[] = [];
    const report = new ExecPluginRunReport('oidc-login', clock, (run) => told.push(run));
    clock.step(announceAfterMs);
    report.printed(`${'x'.repeat(5_000)}\nopen http://localhost:8000`);
    expect(told.at(-1)?.message.length).toBeLessThanOrEqual(2_048);
    expect(told.at(-1)?.message.endsWith('open http://localhost:8000')).toBe(true);
  });
});
