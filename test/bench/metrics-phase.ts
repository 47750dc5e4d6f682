// Where the app's metrics polls land in metrics-server's windows, at the real resolution, by hand: the
// embedded cluster in its own process serves metrics.k8s.io over HTTP (a scrape every 15 s), and this
// process runs MetricsPoller as a session does (the metrics worker decoding and summing the replies)
// for `--minutes`. Per poll: when it began, the scrape it read and how old that was then (both clocks
// are this machine's), and whether it brought a new scrape; then the windows read and skipped, the
// polls that brought nothing new, and the scrapes' ages once the phase was found (after two minutes).
//
//   npx tsx test/bench/metrics-phase.ts [--pods 5000] [--minutes 6]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { realClock } from '../../main/cache/real-clock';
import { MetricsPoller } from '../../main/bridge/metrics-poller';
import { MetricsWorkerWork } from '../../main/bridge/metrics-worker-work';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { metricsListRequest } from '../../main/kube/metrics-list';
import { RestClient } from '../../main/kube/rest-client';
import { startClusterProcess } from './ui-cluster';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '5000' },
    minutes: { type: 'string', default: '6' },
  },
});
const windowMs = 15_000;
const directory = mkdtempSync(join(tmpdir(), 'kubetide-metrics-phase-'));
const kubeconfigPath = join(directory, 'kubeconfig');
const cluster = await startClusterProcess({
  pods: Number(values.pods),
  kubeconfigPath,
  log: (message) => console.error(message),
});
const started = Date.now();
const seconds = (time: number) => ((time - started) / 1000).toFixed(1).padStart(6);
try {
  const connection = Kubeconfig.fromString(readFileSync(kubeconfigPath, 'utf8')).connect();
  const client = new RestClient(connection);
  const polls: { at: number; done?: number; timestamp?: number }[] = [];
  const work = new MetricsWorkerWork({
    fetch: (resource, namespace, signal, reader) => {
      polls.push({ at: Date.now() });
      return client.listInto(metricsListRequest(resource, namespace, signal), reader);
    },
    record: () => {},
    cachedObject: () => undefined,
    reportError: (context, error) => console.error(context, error),
  });
  const poller = new MetricsPoller({
    clock: realClock,
    work,
    served: () => true,
    namespaces: () => [],
    send: (message) => {
      const poll = polls.at(-1);
      if (!poll || poll.timestamp !== undefined || message.timestamp === undefined) return;
      poll.timestamp = message.timestamp;
      poll.done = Date.now();
      const previous = polls.at(-2)?.timestamp;
      const news = previous === undefined || message.timestamp > previous ? 'new' : 'same scrape';
      console.log(
        `${seconds(poll.at)} s: poll read the scrape of ${seconds(message.timestamp)} s, ` +
          `${((poll.at - message.timestamp) / 1000).toFixed(1)} s old, took ${poll.done - poll.at} ms (${news})`,
      );
    },
  });
  poller.retain('pods');
  await new Promise((resolve) => setTimeout(resolve, Number(values.minutes) * 60_000));
  poller.close();
  connection.close();
  const read = polls.filter((poll) => poll.timestamp !== undefined);
  const windows = new Set(read.map((poll) => poll.timestamp! / windowMs));
  const first = Math.min(...windows);
  const last = Math.max(...windows);
  const stale = read.filter((poll, index) => index > 0 && poll.timestamp === read[index - 1]!.timestamp);
  const settled = read.filter((poll) => poll.at - started > 2 * 60_000);
  const ages = settled.map((poll) => (poll.at - poll.timestamp!) / 1000).sort((a, b) => a - b);
  console.log(
    `${read.length} polls over ${values.minutes} min: ${windows.size} scrapes read of ${last - first + 1} ` +
      `(${last - first + 1 - windows.size} skipped), ${stale.length} polls brought no new scrape; ` +
      `after 2 min, a scrape's age at its poll: median ${ages[Math.floor(ages.length / 2)]?.toFixed(1)} s, ` +
      `max ${ages.at(-1)?.toFixed(1)} s`,
  );
} finally {
  await cluster.close();
  rmSync(directory, { recursive: true, force: true });
}
