// New credentials in the open context's kubeconfig entry (a token renewed by `oc login`, a Rancher
// token regenerated): when the API server knows them as the same user, the session takes them in
// place, lists nothing again and its failing feeds and log views retry at once; another user's
// credentials open the context again (that user may read other things).
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startBackend } from '../../main/app/backend';
import type { Backend } from '../../main/app/backend';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import type { SimUser } from '../../main/sim/sim-users';
import type { LogServerMessage } from '../../shared/protocol/log-messages';
import { connectRenderer } from '../support/backend-renderer';

const pods = { group: '', version: 'v1', resource: 'pods' };
const configmaps = { group: '', version: 'v1', resource: 'configmaps' };
const everything = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }];
const jane = (token: string): SimUser => ({
  name: 'jane',
  token,
  groups: ['ops', 'system:authenticated'],
  rules: everything,
});
const bob: SimUser = { name: 'bob', token: 'bob-token', groups: ['system:authenticated'], rules: everything };
/** The tokens the cluster accepts now; a test revokes one by deleting it. */
const tokens = new Map<string, SimUser>(
  [jane('jane-monday'), jane('jane-tuesday'), jane('jane-wednesday'), bob].map((user) => [user.token, user]),
);
let cluster: EmbeddedCluster;
let backend: Backend;
let directory: string;
let file: string;
const logged: string[] = [];

/** The cluster's kubeconfig, its context named `work`, its user's token replaced by `token`. */
function writeKubeconfig(token: string): void {
  const document = parse(cluster.kubeconfigYaml()) as {
    users: { user: Record<string, unknown> }[];
    contexts: { name: string }[];
    'current-context': string;
  };
  document.users[0]!.user = { token };
  document.contexts[0]!.name = 'work';
  document['current-context'] = 'work';
  writeFileSync(`${file}.new`, stringify(document));
  renameSync(`${file}.new`, file);
}

beforeAll(async () => {
  cluster = await startEmbeddedCluster({
    tls: true,
    pods: 10,
    seed: 5,
    authenticateToken: (token) => tokens.get(token),
  });
  directory = mkdtempSync(join(tmpdir(), 'kubeconfig-credentials-'));
  file = join(directory, 'config');
  writeKubeconfig('jane-monday');
  backend = await startBackend({
    kubeconfig: file,
    dataDirectory: join(directory, 'data'),
    log: (message) => logged.push(message),
  });
});

afterAll(async () => {
  await backend?.close();
  await cluster?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("new credentials in the open context's kubeconfig entry", () => {
  it("are taken in place when they are the same user's, and open the context again when they are another's", async () => {
    const renderer = connectRenderer(backend, 'credentials');
    const { client } = renderer;
    try {
      const podsId = await client.subscribe(pods);
      const rowCount = (id: string) => client.store.mirror(id)?.rows.size ?? 0;
      const session = () => client.state.getState().contexts?.session;
      const phase = (id: string) => client.state.getState().syncStates[id]?.phase;
      const renewals = () =>
        logged.filter((line) =>
          /goes on with the kubeconfig's new credentials: .* same user, jane/.test(line),
        ).length;
      await expect.poll(() => rowCount(podsId), { timeout: 15_000 }).toBe(10);
      await expect.poll(() => phase(podsId), { timeout: 15_000 }).toBe('synced');
      const podLists = cluster.requests.fullLists('pods');

      // Tuesday's token written while Monday's still holds: taken in place, nothing listed again.
      writeKubeconfig('jane-tuesday');
      await expect.poll(renewals, { timeout: 15_000 }).toBe(1);
      expect(session()).toBe(1);
      expect(cluster.requests.fullLists('pods')).toBe(podLists);
      // Monday's token revoked: a kind subscribed now is listed with Tuesday's.
      tokens.delete('jane-monday');
      const configmapsId = await client.subscribe(configmaps);
      await expect.poll(() => phase(configmapsId), { timeout: 15_000 }).toBe('synced');

      const [row] = client.store.mirror(podsId)!.rows.values();
      const pod = await client.getObject(pods, row!.namespace, row!.name);
      const container = String((pod.spec as { containers: { name: string }[] }).containers[0]!.name);

      // Tuesday's token expires: the pods' watch ends and every retry is refused (401), each after a
      // longer backoff; a log view opened now is refused for good ...
      tokens.delete('jane-tuesday');
      const logMessages: LogServerMessage[] = [];
      const logs = client.openLogs(
        { kind: 'pod', namespace: row!.namespace, name: row!.name, container },
        { follow: true, previous: false },
        (message) => logMessages.push(message),
      );
      await logs.opened;
      const logNotes = () =>
        logMessages.flatMap((message) =>
          message.type === 'logNote' ? [`${message.kind}: ${message.message}`] : [],
        );
      const refused = /^failed: 401 getting pods\/log in namespace .*: the server rejected your credentials/;
      await expect.poll(() => logNotes()[0] ?? '', { timeout: 15_000 }).toMatch(refused);
      expect(logNotes()).toHaveLength(1);
      cluster.faults.dropWatches();
      const retryIn = () => {
        const state = client.state.getState().syncStates[podsId];
        return state?.error?.code === 401 && state.retryAt !== undefined ? state.retryAt - Date.now() : 0;
      };
      await expect.poll(retryIn, { timeout: 60_000, interval: 50 }).toBeGreaterThan(8_000);
      const retryAt = Date.now() + retryIn();
      expect(phase(podsId)).toBe('error');
      // ... until Wednesday's is written: the failing feeds retry at once, not at their backoff's end.
      writeKubeconfig('jane-wednesday');
      await expect.poll(renewals, { timeout: 15_000 }).toBe(2);
      await expect.poll(() => phase(podsId), { timeout: 5_000, interval: 20 }).toBe('synced');
      expect(Date.now()).toBeLessThan(retryAt);
      expect(session()).toBe(1);
      expect(rowCount(podsId)).toBe(10);
      // ... and the log view reads, in the same view.
      await expect
        .poll(() => logMessages.some((message) => message.type === 'logLines'), { timeout: 5_000 })
        .toBe(true);
      expect(logNotes()[0]).toMatch(refused);
      expect(logNotes().slice(1)).toEqual(['reconnecting: new credentials; reconnecting now']);
      logs.close();

      // Bob's token in jane's place: another user, who may read other things, so the context opens again.
      writeKubeconfig('bob-token');
      await expect.poll(session, { timeout: 15_000 }).toBe(2);
      expect(logged.join('\n')).toMatch(
        /credentials for context work changed; they are bob \(groups system:authenticated\), not jane \(groups ops, system:authenticated\): opening it again/,
      );

      // A token the server refuses: who it is cannot be told, so the context opens again (and fails,
      // as it would on those credentials); from that session, whose own user was never known, even
      // jane's credentials open it again.
      writeKubeconfig('nobody-token');
      await expect.poll(session, { timeout: 15_000 }).toBe(3);
      expect(logged.join('\n')).toMatch(
        /who the new ones are cannot be told \(401 creating selfsubjectreviews/,
      );
      await expect
        .poll(() => client.state.getState().syncStates[podsId]?.error?.code, { timeout: 15_000 })
        .toBe(401);
      writeKubeconfig('jane-wednesday');
      await expect.poll(session, { timeout: 15_000 }).toBe(4);
      expect(logged.join('\n')).toMatch(
        /who the open session is was not known \(401 creating selfsubjectreviews/,
      );
      await expect.poll(() => phase(podsId), { timeout: 15_000 }).toBe('synced');
    } finally {
      renderer.close();
    }
  }, 120_000);
});
