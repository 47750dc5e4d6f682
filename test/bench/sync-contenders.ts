// The three ways of getting every pod of a cluster into memory that the sync benchmark compares, each
// run to "synced" against the same server. Each returns what it holds, so a caller measuring retained
// heap keeps exactly the contender's cache alive, and a stop function that ends its watch.
import http from 'node:http';
import https from 'node:https';
import { parse } from 'yaml';
import { makeInformer } from '@kubernetes/client-node';
import type { V1Pod } from '@kubernetes/client-node';
import { SharedIndexInformer } from '../../main/cache/shared-informer';
import type { KubeList, KubeObject } from '../../shared/kube/object';
import {
  clientNodeConfig,
  clientNodeCoreApi,
  getBody,
  kubetideClient,
  kubetideInformerParts,
  waitUntil,
} from './harness';

export const syncContenders = ['floor', 'kubetide', 'client_node'] as const;
export type SyncContender = (typeof syncContenders)[number];

export interface SyncedCache {
  /** Objects held once synced. */
  count: number;
  /** The contender's cache and machinery; keep a reference to keep them alive. */
  retained: unknown;
  stop(): Promise<void>;
}

const syncTimeoutMs = 15 * 60_000;

/**
 * The floor: one GET of the whole list and one JSON.parse, nothing kept but the parsed items. Over
 * TLS it trusts the CA of the cluster's kubeconfig, as the other contenders do.
 */
export async function syncFloor(server: string, kubeconfigYaml: string): Promise<SyncedCache> {
  const agent = server.startsWith('https:')
    ? new https.Agent({ keepAlive: true, ca: certificateAuthorityOf(kubeconfigYaml) })
    : new http.Agent({ keepAlive: true });
  const body = await getBody(`${server}/api/v1/pods`, agent);
  const list = JSON.parse(body.toString('utf8')) as KubeList;
  agent.destroy();
  return { count: list.items.length, retained: list.items, stop: async () => {} };
}

/**
 * Kubetide as the app runs it (main/bridge/feed.ts): a SharedIndexInformer over httpListerWatcher with
 * the feed's compactor and one handler; synced when that handler has seen the list.
 */
export async function syncKubetide(kubeconfigYaml: string): Promise<SyncedCache> {
  const { client, close } = kubetideClient(kubeconfigYaml);
  const informer = new SharedIndexInformer<KubeObject>({
    name: 'bench pods',
    ...kubetideInformerParts(client),
  });
  let added = 0;
  const registration = informer.addEventHandler({ onAdd: () => void added++ });
  const stopSignal = new AbortController();
  const running = informer.run(stopSignal.signal);
  await waitUntil(() => registration.hasSynced(), syncTimeoutMs, 'the Kubetide informer to sync');
  return {
    count: informer.getIndexer().list().length,
    retained: informer,
    async stop() {
      stopSignal.abort();
      await running;
      close();
    },
  };
}

/** @kubernetes/client-node's makeInformer with its generated list call, as its README shows. */
export async function syncClientNode(server: string): Promise<SyncedCache> {
  const config = clientNodeConfig(server);
  const api = clientNodeCoreApi(config);
  const informer = makeInformer<V1Pod>(config, '/api/v1/pods', () => api.listPodForAllNamespaces());
  informer.on('error', () => {});
  await informer.start();
  return {
    count: informer.list().length,
    retained: informer,
    async stop() {
      await informer.stop();
    },
  };
}

export function runSyncContender(
  contender: SyncContender,
  server: string,
  kubeconfigYaml: string,
): Promise<SyncedCache> {
  switch (contender) {
    case 'floor':
      return syncFloor(server, kubeconfigYaml);
    case 'kubetide':
      return syncKubetide(kubeconfigYaml);
    case 'client_node':
      return syncClientNode(server);
  }
}

/** The PEM of the CA a kubeconfig's first cluster names (certificate-authority-data), if any. */
function certificateAuthorityOf(kubeconfigYaml: string): string | undefined {
  const config = parse(kubeconfigYaml) as { clusters?: { cluster?: Record<string, string> }[] };
  const data = config.clusters?.[0]?.cluster?.['certificate-authority-data'];
  return data === undefined ? undefined : Buffer.from(data, 'base64').toString('utf8');
}
