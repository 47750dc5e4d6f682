// The launch secret never appears on a command line. Browser mode opens the browser through an opener
// (xdg-open, open, explorer; here a stub named by $BROWSER that records its argv and lingers), and
// while it runs every process's /proc/PID/cmdline is scanned for the secret. What the opener does
// carry is a one-time launch code: it buys the session cookie once, and is worthless seconds later.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer } from '../../main/app/browser-server';
import type { BrowserServer } from '../../main/app/browser-server';
import { openerCodeLifetimeMs, printedCodeLifetimeMs } from '../../main/app/launch-codes';
import { openInBrowser } from '../../main/app/serve';
import { FakeClock } from '../../main/cache/fake-clock';

let directory: string;
const servers: BrowserServer[] = [];

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'kubetide-launch-'));
  writeFileSync(join(directory, 'index.html'), '<!doctype html><title>Kubetide</title>');
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(directory, { recursive: true, force: true });
});

async function server(clock?: FakeClock): Promise<BrowserServer> {
  const started = await startBrowserServer({
    rendererDirectory: directory,
    onConnection: (transport) => transport.close(),
    ...(clock ? { clock } : {}),
  });
  servers.push(started);
  return started;
}

/** Every process's command line this user can read. */
function commandLines(): string[] {
  const lines: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      lines.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '));
    } catch {
      // The process ended while we looked.
    }
  }
  return lines;
}

async function launch(url: string): Promise<Response> {
  return fetch(url, { redirect: 'manual' });
}

describe('the launch secret', () => {
  it('is absent from every command line while the browser opener runs', async () => {
    const started = await server();
    const argvFile = join(directory, 'opener-argv');
    const opener = join(directory, 'opener.sh');
    writeFileSync(opener, `#!/bin/sh\nprintf '%s\\n' "$@" > "${argvFile}"\nsleep 2\n`, { mode: 0o755 });
    openInBrowser(started.launchUrl(openerCodeLifetimeMs), { BROWSER: opener });
    await expect.poll(() => existsSync(argvFile) && readFileSync(argvFile, 'utf8').length > 0).toBe(true);
    const lines = commandLines();
    expect(lines.some((line) => line.includes(opener))).toBe(true);
    expect(lines.filter((line) => line.includes(started.secret))).toEqual([]);

    const [address] = readFileSync(argvFile, 'utf8').trim().split('\n');
    expect(address).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${started.port}/launch\\?code=`));
    const first = await launch(address);
    expect(first.status).toBe(303);
    expect(first.headers.get('set-cookie')).toContain(started.secret);
    const replayed = await launch(address);
    expect(replayed.status).toBe(403);
    expect(replayed.headers.get('set-cookie')).toBeNull();
  });

  it.each([
    ['the opener', openerCodeLifetimeMs],
    ['the printed address', printedCodeLifetimeMs],
  ])('the code given to %s expires at its production lifetime', async (_name, lifetimeMs) => {
    const clock = new FakeClock();
    const started = await server(clock);
    const early = started.launchUrl(lifetimeMs);
    const late = started.launchUrl(lifetimeMs);
    clock.step(lifetimeMs - 1);
    expect((await launch(early)).status).toBe(303);
    clock.step(1);
    const expired = await launch(late);
    expect(expired.status).toBe(403);
    expect(expired.headers.get('set-cookie')).toBeNull();
    expect(lifetimeMs).toBeLessThanOrEqual(60_000);
  });

  it('a guessed or malformed code buys nothing', async () => {
    const started = await server();
    for (const code of ['', 'x', 'A'.repeat(32), '%00', started.secret]) {
      const response = await launch(`http://127.0.0.1:${started.port}/launch?code=${code}`);
      expect(response.status, code).toBe(403);
    }
  });
});
