import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import type { ClusterConnection } from '../../../main/kube/cluster-connection';
import { ExecPluginFailedError, ExecPluginMissingError } from '../../../main/kube/errors';
import { Kubeconfig } from '../../../main/kube/kubeconfig';
import { RestClient } from '../../../main/kube/rest-client';
import { newStatus } from '../../../shared/kube/status';
import { startHttpProxy } from '../../support/test-proxies';
import { kubeconfigYaml, rejectionOf, sendJson, startServer } from './local-server';
import type { LocalServer } from './local-server';

const directory = mkdtempSync(path.join(tmpdir(), 'kubetide-exec-'));
const runsFile = path.join(directory, 'runs');
/**
 * A credential plugin: counts its runs in a file and prints token-<run>, expiring at $EXPIRES. It also
 * echoes KUBERNETES_EXEC_INFO's kind into the token so the test can see it was provided.
 */
const plugin = path.join(directory, 'plugin.mjs');
writeFileSync(
  plugin,
  `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
const runs = (existsSync(process.env.RUNS) ? Number(readFileSync(process.env.RUNS, 'utf8')) : 0) + 1;
writeFileSync(process.env.RUNS, String(runs));
if (process.env.FAIL) { process.stderr.write('error: you must log in first\\n'); process.exit(3); }
const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);
if (process.env.INFO_FILE) writeFileSync(process.env.INFO_FILE, process.env.KUBERNETES_EXEC_INFO);
const status = { token: 'token-' + runs + '-' + info.kind };
if (process.env.EXPIRES) status.expirationTimestamp = process.env.EXPIRES;
process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status }));
`,
);

let server: LocalServer | undefined;
let connection: ClusterConnection | undefined;
const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));

afterEach(async () => {
  connection?.close();
  await server?.close();
  server = connection = undefined;
  rmSync(runsFile, { force: true });
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function execUser(env: Record<string, string> = {}, command = process.execPath) {
  return {
    exec: {
      apiVersion: 'client.authentication.k8s.io/v1',
      command,
      args: [plugin],
      env: Object.entries({ RUNS: runsFile, ...env }).map(([name, value]) => ({ name, value })),
      installHint: 'Install it with: brew install kubetide-login',
      interactiveMode: 'Never',
    },
  };
}

/** A client whose server accepts only the tokens in `accepted` and records what it saw. */
async function clientWith(user: object, accepted: (token: string) => boolean, seen: string[] = []) {
  server = await startServer((request, response) => {
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    seen.push(token);
    if (accepted(token)) sendJson(response, 200, { ok: true });
    else sendJson(response, 401, newStatus(401, 'Unauthorized', 'token expired'));
  });
  connection = Kubeconfig.fromString(kubeconfigYaml(server.url, user as Record<string, unknown>)).connect(
    undefined,
    { clock },
  );
  return new RestClient(connection, { clock });
}

const get = (client: RestClient) =>
  client.json({ path: '/api/v1/pods', description: { verb: 'list', resource: 'pods' } });
const runs = () => Number(readFileSync(runsFile, 'utf8'));

describe('exec credential plugins', () => {
  it('sends the token the plugin prints, with KUBERNETES_EXEC_INFO provided', async () => {
    const seen: string[] = [];
    const client = await clientWith(execUser(), () => true, seen);
    await get(client);
    expect(seen).toEqual(['token-1-ExecCredential']);
  });

  it("gives the plugin the cluster as client-go's ConfigToExecCluster does, when provideClusterInfo is set", async () => {
    const proxy = await startHttpProxy();
    const infoFile = path.join(directory, 'info.json');
    const authority = path.join(directory, 'ca.pem');
    writeFileSync(authority, 'CA-PEM-TEXT');
    server = await startServer((_request, response) => sendJson(response, 200, { ok: true }));
    const user = execUser({ INFO_FILE: infoFile });
    const text = kubeconfigYaml(
      server.url,
      { exec: { ...user.exec, provideClusterInfo: true } },
      {
        'certificate-authority': authority,
        'tls-server-name': 'api.internal',
        'proxy-url': proxy.url,
        'disable-compression': true,
      },
    );
    connection = Kubeconfig.fromString(text).connect(undefined, { clock });
    try {
      await get(new RestClient(connection, { clock }));
    } finally {
      await proxy.close();
    }
    const info = JSON.parse(readFileSync(infoFile, 'utf8')) as {
      spec: { interactive: boolean; cluster: object };
    };
    expect(info.spec).toEqual({
      interactive: false,
      cluster: {
        server: server.url,
        'certificate-authority-data': Buffer.from('CA-PEM-TEXT').toString('base64'),
        'tls-server-name': 'api.internal',
        'proxy-url': proxy.url,
        'disable-compression': true,
      },
    });
  });

  it('caches the credential until its expirationTimestamp, then runs the plugin again', async () => {
    const seen: string[] = [];
    const client = await clientWith(execUser({ EXPIRES: '2026-01-01T01:00:00Z' }), () => true, seen);
    await get(client);
    await get(client);
    expect(runs()).toBe(1);
    clock.setTime(Date.parse('2026-01-01T01:00:00Z'));
    await get(client);
    expect(runs()).toBe(2);
    expect(seen.at(-1)).toBe('token-2-ExecCredential');
  });

  it('runs the plugin once for concurrent requests', async () => {
    const client = await clientWith(execUser(), () => true);
    await Promise.all([get(client), get(client), get(client)]);
    expect(runs()).toBe(1);
  });

  it('on a 401 refreshes the credential once and retries the request', async () => {
    const seen: string[] = [];
    const client = await clientWith(execUser(), (token) => token.startsWith('token-2'), seen);
    await expect(get(client)).resolves.toEqual({ ok: true });
    expect(seen).toEqual(['token-1-ExecCredential', 'token-2-ExecCredential']);
  });

  it('gives up after one retry when the fresh credential is rejected too', async () => {
    const seen: string[] = [];
    const client = await clientWith(execUser(), () => false, seen);
    await expect(get(client)).rejects.toThrow(/^401 listing pods/);
    expect(seen).toHaveLength(2);
  });

  it('reports a failing plugin with its exit code and stderr', async () => {
    const client = await clientWith(execUser({ FAIL: '1' }), () => true);
    const error = await rejectionOf<ExecPluginFailedError>(get(client));
    expect(error).toBeInstanceOf(ExecPluginFailedError);
    expect(error.exitCode).toBe(3);
    expect(error.stderr).toContain('you must log in first');
    expect(error.message).toContain('exited with code 3: error: you must log in first');
  });

  it('reports a missing plugin with its command and the install hint', async () => {
    const client = await clientWith(execUser({}, 'kubetide-no-such-login-plugin'), () => true);
    const error = await rejectionOf<ExecPluginMissingError>(get(client));
    expect(error).toBeInstanceOf(ExecPluginMissingError);
    expect(error.command).toBe('kubetide-no-such-login-plugin');
    expect(error.message).toBe(
      'exec credential plugin "kubetide-no-such-login-plugin" was not found. Install it with: brew install kubetide-login',
    );
  });
});
