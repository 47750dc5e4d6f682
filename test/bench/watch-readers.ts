// The three readers of the watch benchmark, each reading the replayed stream until its handler has
// seen `events` events and resolving with the time of the last one (epochNow, so the parent process
// that served the stream can compare it with when the WATCH arrived).
import http from 'node:http';
import { makeInformer } from '@kubernetes/client-node';
import type { V1Pod } from '@kubernetes/client-node';
import { SharedIndexInformer } from '../../main/cache/shared-informer';
import { embeddedKubeconfig } from '../../main/sim/kubeconfig';
import type { KubeList, KubeObject } from '../../shared/kube/object';
import {
  clientNodeConfig,
  clientNodeCoreApi,
  getBody,
  kubetideClient,
  kubetideInformerParts,
} from './harness';
import { epochNow } from './replay-server';

export const watchReaders = ['floor', 'kubetide', 'client_node'] as const;
export type WatchReader = (typeof watchReaders)[number];

const readTimeoutMs = 10 * 60_000;

/** Resolves with epochNow() of the `target`-th call to seen(). */
function countdown(target: number): { seen: () => void; done: Promise<number> } {
  let seen = 0;
  let finish: (at: number) => void = () => {};
  const done = new Promise<number>((resolve, reject) => {
    finish = resolve;
    setTimeout(
      () => reject(new Error(`watch reader saw ${seen} of ${target} events in time`)),
      readTimeoutMs,
    ).unref();
  });
  return {
    seen() {
      seen += 1;
      if (seen === target) finish(epochNow());
    },
    done,
  };
}

/** Kubetide's full pipeline: Reflector, DeltaFIFO, indexer, processor, one update handler. */
export async function readWithKubetide(server: string, events: number): Promise<number> {
  const { client, close } = kubetideClient(embeddedKubeconfig(server));
  const informer = new SharedIndexInformer<KubeObject>({
    name: 'bench watch',
    ...kubetideInformerParts(client),
  });
  const progress = countdown(events);
  informer.addEventHandler({ onUpdate: () => progress.seen() });
  const stop = new AbortController();
  const running = informer.run(stop.signal);
  const end = await progress.done;
  stop.abort();
  await running;
  close();
  return end;
}

export async function readWithClientNode(server: string, events: number): Promise<number> {
  const config = clientNodeConfig(server);
  const api = clientNodeCoreApi(config);
  const informer = makeInformer<V1Pod>(config, '/api/v1/pods', () => api.listPodForAllNamespaces());
  const progress = countdown(events);
  informer.on('update', () => progress.seen());
  informer.on('error', () => {});
  await informer.start();
  const end = await progress.done;
  await informer.stop();
  return end;
}

/** The floor: the same HTTP stream, split into lines and JSON.parse'd; nothing is kept. */
export async function readWithFloor(server: string, events: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true });
  const progress = countdown(events);
  const list = JSON.parse((await getBody(`${server}/api/v1/pods`, agent)).toString('utf8')) as KubeList;
  const url = `${server}/api/v1/pods?watch=1&resourceVersion=${list.metadata?.resourceVersion ?? ''}`;
  const request = http.get(url, { agent }, (response) => {
    let rest = '';
    response.setEncoding('utf8');
    response.on('data', (text: string) => {
      const lines = (rest + text).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (JSON.parse(line)) progress.seen();
    });
  });
  request.on('error', () => {});
  const end = await progress.done;
  request.destroy();
  agent.destroy();
  return end;
}

export function runWatchReader(reader: WatchReader, server: string, events: number): Promise<number> {
  switch (reader) {
    case 'floor':
      return readWithFloor(server, events);
    case 'kubetide':
      return readWithKubetide(server, events);
    case 'client_node':
      return readWithClientNode(server, events);
  }
}
