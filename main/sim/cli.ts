// `npm run sim -- --pods 5000 --churn 50 --port 6443 --kubeconfig FILE [--seed S] [--nodes N]
// [--namespaces N] [--user NAME:NS1,NS2 ...] [--plain-http] [--no-metrics] [--no-gzip]`: starts the
// embedded cluster (TLS with HTTP/2 and HTTP/1.1, behind its fault proxy, unless --plain-http), writes a
// kubeconfig for it (and one per --user, beside it, as NAME.kubeconfig), and runs until Ctrl-C. It
// stands for a real API server, so it gzips LIST replies over 128 KiB as one does, unless --no-gzip;
// --no-metrics leaves metrics.k8s.io out, as on a cluster without metrics-server.
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedCluster } from './embedded-cluster';
import type { SimUser } from './sim-users';
import { namespaceViewer } from './sim-users';

const usage = `usage: npm run sim -- [--pods N] [--churn PER_SECOND] [--port PORT] [--kubeconfig FILE] [--seed S] [--nodes N] [--namespaces N] [--user NAME:NAMESPACE,NAMESPACE ...] [--plain-http] [--no-metrics] [--no-gzip]`;

/** "jane:payments,default": a user who may read those namespaces only (namespaceViewer). */
function limitedUser(text: string): SimUser {
  const match = /^([a-z0-9][-a-z0-9.@]*):([-a-z0-9,]+)$/.exec(text);
  const namespaces = match?.[2]!.split(',').filter(Boolean) ?? [];
  if (!match || namespaces.length === 0) {
    console.error(`--user must be NAME:NAMESPACE[,NAMESPACE...] (got ${text})\n${usage}`);
    process.exit(2);
  }
  return namespaceViewer({ name: match[1]!, namespaces });
}

function integer(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} must be a non-negative integer (got ${text})\n${usage}`);
    process.exit(2);
  }
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pods: { type: 'string' },
      churn: { type: 'string' },
      port: { type: 'string' },
      kubeconfig: { type: 'string' },
      seed: { type: 'string' },
      nodes: { type: 'string' },
      namespaces: { type: 'string' },
      user: { type: 'string', multiple: true },
      'plain-http': { type: 'boolean' },
      'no-metrics': { type: 'boolean' },
      'no-gzip': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const pods = integer('pods', values.pods, 5000);
  const kubeconfigPath = resolve(values.kubeconfig ?? 'kubetide-embedded.kubeconfig');
  const users = (values.user ?? []).map(limitedUser);
  const caPath = `${kubeconfigPath}.ca.crt`;
  const started = Date.now();
  const cluster = await startEmbeddedCluster({
    port: integer('port', values.port, 6443),
    tls: !values['plain-http'],
    faultProxy: true,
    seed: integer('seed', values.seed, Date.now() % 2 ** 31),
    pods,
    nodes: values.nodes === undefined ? undefined : integer('nodes', values.nodes, 0),
    namespaces: values.namespaces === undefined ? undefined : integer('namespaces', values.namespaces, 0),
    simulation: { churnPerSecond: integer('churn', values.churn, 0) },
    users,
    metrics: !values['no-metrics'],
    compressResponses: !values['no-gzip'],
    onSeedProgress: ({ pods: done, totalPods }) =>
      process.stderr.write(`\rseeding pods: ${done}/${totalPods}`),
  });
  if (pods > 0)
    process.stderr.write(`\rseeded ${pods} pods in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  writeFileSync(kubeconfigPath, cluster.kubeconfigYaml(), { mode: 0o600 });
  console.log(`Kubetide embedded cluster listening on ${cluster.url} (churn ${cluster.churn.rate}/s)`);
  console.log(
    `Kubeconfig written to ${kubeconfigPath}. Try:\n  KUBECONFIG=${kubeconfigPath} kubectl get pods -A`,
  );
  for (const user of users) {
    const path = join(dirname(kubeconfigPath), `${user.name}.kubeconfig`);
    writeFileSync(path, cluster.kubeconfigYaml(user.name), { mode: 0o600 });
    console.log(
      `User ${user.name} (reads ${user.rules[0]?.namespaces?.join(', ')} only): KUBECONFIG=${path}`,
    );
  }
  const trust = cluster.certificateAuthority ? ` --cacert ${caPath}` : '';
  if (cluster.certificateAuthority) writeFileSync(caPath, cluster.certificateAuthority);
  console.log(`Faults: curl${trust} -X POST ${cluster.url}/_sim/faults -d '{"action":"dropWatches"}'`);
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log('\nstopping...');
    void cluster.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
