// The embedded cluster's own CPU under churn, by hand: the ui bench runs it beside Kubetide on the same
// two cores, where a real API server runs elsewhere, so what it spends is taken from the product's
// figures. A 150,000-pod cluster is seeded as startEmbeddedCluster seeds it, on a fake clock, with
// one listener reading every event's watch line (as a pods watch does), and the simulation is stepped
// through --seconds of churn, tick by tick: the same seeded changes every run, so two runs of
// different code compare by CPU alone, whatever the machine's load.
//
//   npx tsx test/bench/sim-churn.ts [--pods 150000] [--churn 2000] [--seconds 30] [--rounds 1]
import { parseArgs } from 'node:util';
import { FakeClock } from '../../main/cache/fake-clock';
import { ClusterStorage } from '../../main/sim/cluster-storage';
import { GarbageCollector } from '../../main/sim/garbage-collector';
import { ObjectStore } from '../../main/sim/object-store';
import { OwnerIndex } from '../../main/sim/owner-index';
import { SeededRandom } from '../../main/sim/random';
import { ResourceCatalog } from '../../main/sim/resource-catalog';
import { seedCluster } from '../../main/sim/seed';
import { Simulation } from '../../main/sim/simulation';

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '150000' },
    churn: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '30' },
  },
});
const pods = Number(values.pods);
const churn = Number(values.churn);
const seconds = Number(values.seconds);

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const clock = new FakeClock(Date.UTC(2026, 0, 1));
const random = new SeededRandom(7);
const store = new ObjectStore();
const storage = new ClusterStorage(store, new ResourceCatalog(), clock, random);
for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease'])
  storage.create(storage.catalog.findAnyVersion('', 'namespaces')!, undefined, { metadata: { name } });
seedCluster(store, random, clock.now(), { pods });
const owners = new OwnerIndex(store);
const collector = new GarbageCollector(store, owners, clock);
storage.onOrphan = (owner) => collector.orphan(owner);
const simulation = new Simulation(storage, owners, clock, random);
simulation.start();
let lineBytes = 0;
store.subscribe((event) => {
  lineBytes += event.line.length;
});
// Settle the seeded cluster first (its controllers' first passes), then churn.
for (let tick = 0; tick < 50; tick++) clock.step(100);
simulation.setChurn(churn);
const revisionBefore = store.resourceVersion;
const started = cpuMs();
const startedWall = performance.now();
for (let tick = 0; tick < seconds * 10; tick++) clock.step(100);
const spent = cpuMs() - started;
const revisions = store.resourceVersion - revisionBefore;
console.log(
  JSON.stringify({
    pods,
    churn,
    seconds,
    revisions,
    cpu_ms: Math.round(spent),
    cpu_ms_per_simulated_s: Math.round(spent / seconds),
    cpu_us_per_revision: Math.round((spent * 1000) / revisions),
    wall_ms: Math.round(performance.now() - startedWall),
    line_mb: Math.round(lineBytes / 2 ** 20),
  }),
);
