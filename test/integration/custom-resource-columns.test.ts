// Custom resources get their CRD's additionalPrinterColumns in Kubetide as `kubectl get` shows them:
// the printer the app's Discovery hands the row projector, formatted as the table formats cells, must
// print what the installed kubectl prints against the same cluster (default and -o wide), and must
// follow a CRD edited while connected. The sim runs on a fake clock, so AGE reads the same on both sides.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../main/cache/fake-clock';
import type { ClusterConnection } from '../../main/kube/cluster-connection';
import { Discovery } from '../../main/kube/discovery';
import { Kubeconfig } from '../../main/kube/kubeconfig';
import { RestClient } from '../../main/kube/rest-client';
import type { EmbeddedCluster } from '../../main/sim/embedded-cluster';
import { startEmbeddedCluster } from '../../main/sim/embedded-cluster';
import { certificateGroup } from '../../main/sim/seed-custom-resources';
import { columnHeader, formatRow, printerFor } from '../../shared/kinds/columns';
import type { KubeObject } from '../../shared/kube/object';
import type { KubectlHarness } from './kubectl-harness';
import { kubectlHarness } from './kubectl-harness';

const clock = new FakeClock();
const certificates = { group: certificateGroup, version: 'v1', resource: 'certificates' };
let cluster: EmbeddedCluster;
let harness: KubectlHarness;
let connection: ClusterConnection;
let discovery: Discovery;

beforeAll(async () => {
  cluster = await startEmbeddedCluster({ seed: 11, pods: 30, namespaces: 4, simulate: false, clock });
  clock.step(95_000);
  harness = kubectlHarness(cluster);
  connection = Kubeconfig.fromString(cluster.kubeconfigYaml()).connect();
  discovery = new Discovery(new RestClient(connection), { rediscoverDelayMs: 20 });
  await discovery.start();
});

afterAll(async () => {
  discovery?.stop();
  connection?.close();
  harness?.close();
  await cluster?.close();
});

/** `kubectl get -A` as cells: columns are separated by at least two spaces, and no cell here has two. */
const cellsOf = (output: string) =>
  output
    .trim()
    .split('\n')
    .map((line) => line.split(/\s{2,}/));

/** What Kubetide's table shows for the same objects: NAMESPACE, then the printer's visible columns. */
function kubetideTable(objects: readonly KubeObject[], wide: boolean): string[][] {
  const printer = discovery.customResourcePrinter(certificates);
  if (!printer) throw new Error('no printer for certificates');
  const visible = printer.columns.flatMap((column, index) =>
    !column.hidden && (wide || column.priority === 0) ? [index] : [],
  );
  const header = ['NAMESPACE', ...visible.map((index) => columnHeader(printer.columns[index]))];
  const rows = objects.map((object) => {
    const texts = formatRow(printer.columns, printer.cells(object, clock.now()), clock.now());
    return [object.metadata.namespace ?? '', ...visible.map((index) => texts[index])];
  });
  return [header, ...rows];
}

async function certificateObjects(): Promise<KubeObject[]> {
  return JSON.parse(await harness.kubectl(['get', 'certificates', '-A', '-o', 'json'])).items;
}

describe('custom resource printer columns', () => {
  it('match kubectl get -A: READY and SECRET before AGE, ISSUER only in the wide view', async () => {
    const objects = await certificateObjects();
    expect(objects.length).toBeGreaterThan(3);
    const kubectl = cellsOf(await harness.kubectl(['get', 'certificates', '-A']));
    expect(kubectl[0]).toEqual(['NAMESPACE', 'NAME', 'READY', 'SECRET', 'AGE']);
    expect(kubectl[1][4]).toBe('95s');
    expect(kubetideTable(objects, false)).toEqual(kubectl);
    const wide = cellsOf(await harness.kubectl(['get', 'certificates', '-A', '-o', 'wide']));
    expect(wide[0]).toEqual(['NAMESPACE', 'NAME', 'READY', 'SECRET', 'ISSUER', 'AGE']);
    expect(kubetideTable(objects, true)).toEqual(wide);
  });

  it('are left to the built-in printers for built-in kinds', () => {
    expect(discovery.customResourcePrinter({ group: 'apps', version: 'v1', resource: 'deployments' })).toBe(
      undefined,
    );
    expect(
      printerFor({ group: certificateGroup, resource: 'certificates' }).columns.map(columnHeader),
    ).toEqual(['NAME', 'AGE']);
  });

  it("follow a CRD edited while connected, telling Discovery's listeners", async () => {
    let notified = 0;
    const stopListening = discovery.onChange(() => notified++);
    const column = { name: 'Hosts', type: 'integer', jsonPath: '.spec.hostCount' };
    await harness.kubectl([
      'patch',
      'crd',
      `certificates.${certificateGroup}`,
      '--type=json',
      `-p=[{"op":"add","path":"/spec/versions/0/additionalPrinterColumns/2","value":${JSON.stringify(column)}}]`,
    ]);
    await harness.kubectl([
      'patch',
      'certificate',
      'api-tls',
      '-n',
      'checkout-00',
      '--type=merge',
      '-p={"spec":{"hostCount":3}}',
    ]);
    await expect
      .poll(() => discovery.customResourcePrinter(certificates)?.columns.map(columnHeader), {
        timeout: 10_000,
      })
      .toEqual(['NAME', 'READY', 'SECRET', 'HOSTS', 'ISSUER', 'AGE']);
    await expect.poll(() => notified, { timeout: 10_000 }).toBeGreaterThan(0);
    stopListening();
    const kubectl = cellsOf(await harness.kubectl(['get', 'certificates', '-A']));
    expect(kubectl[0]).toEqual(['NAMESPACE', 'NAME', 'READY', 'SECRET', 'HOSTS', 'AGE']);
    expect(kubectl.some((row) => row[4] === '3')).toBe(true);
    expect(kubetideTable(await certificateObjects(), false)).toEqual(kubectl);
  });
});
