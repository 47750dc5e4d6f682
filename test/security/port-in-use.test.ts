// A second browser-mode instance on a port already in use must fail before it touches any recording:
// it once connected first and wrote a false "not recording" gap into the first instance's recording.
// The port is now bound before the backend (and its recording) starts.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startBrowserMode } from '../../main/app/serve';
import type { BrowserMode } from '../../main/app/serve';
import { ServeUsageError } from '../../main/app/serve-options';

const root = mkdtempSync(join(tmpdir(), 'kubetide-port-'));
let first: BrowserMode | undefined;

afterAll(async () => {
  await first?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a port already in use', () => {
  it('is reported before the second instance opens any recording or cluster', async () => {
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Kubetide</title>');
    const common = { embedded: true, pods: 20, churn: false, rendererDirectory: root, log: () => undefined };
    first = await startBrowserMode({ ...common, port: 0, dataDirectory: join(root, 'first') });
    const recording = readdirSync(join(root, 'first', 'recordings'));
    const second = startBrowserMode({
      ...common,
      port: first.server.port,
      dataDirectory: join(root, 'second'),
    });
    await expect(second).rejects.toThrow(ServeUsageError);
    await expect(second).rejects.toThrow(`port ${first.server.port} is in use`);
    expect(existsSync(join(root, 'second'))).toBe(false);
    expect(readdirSync(join(root, 'first', 'recordings'))).toEqual(recording);
  }, 60_000);
});
