// The pods of the ui bench's cluster as a feed's informer caches them: a cluster process started with
// `pods` pods, listed through Kubetide's SharedIndexInformer with a feed's compactor (syncKubetide, as
// the sync bench), then closed. For benches that record or serialize a whole cache.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../../shared/kube/object';
import { syncKubetide } from './sync-contenders';
import { startClusterProcess } from './ui-cluster';

/** The pods as a feed's informer holds them once synced; the cluster is gone when this returns. */
export async function cachedPods(pods: number): Promise<readonly KubeObject[]> {
  const directory = mkdtempSync(join(tmpdir(), 'kubetide-cached-pods-'));
  const cluster = await startClusterProcess({
    pods,
    kubeconfigPath: join(directory, 'kubeconfig'),
    log: () => {},
  });
  try {
    const synced = await syncKubetide(readFileSync(cluster.kubeconfigPath, 'utf8'));
    const informer = synced.retained as { getIndexer(): { list(): KubeObject[] } };
    const objects = informer.getIndexer().list();
    await synced.stop();
    return objects;
  } finally {
    await cluster.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
