// A minimal pod API that serves a pre-generated watch stream as fast as the socket takes it, so the
// watch benchmark measures the readers and not the simulator. LIST returns the base pods at
// `listResourceVersion`; a WATCH from that resourceVersion gets the whole stream and is then held open;
// a WATCH from any other resourceVersion (a reader reconnecting) is held open with nothing to say.
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { KubeObject } from '../../shared/kube/object';

export interface ReplayStream {
  basePods: KubeObject[];
  listResourceVersion: number;
  /** The watch body, newline-delimited JSON events, in chunks of about 1 MB. */
  chunks: Buffer[];
  events: number;
  bytes: number;
}

export interface ReplayServer {
  url: string;
  /** epochNow() when each stream-serving WATCH arrived, in order. */
  readonly streamStarts: number[];
  close(): Promise<void>;
}

/**
 * A realistic managedFields block (what kubelet and a controller write on a real cluster): it makes
 * each pod about 3.5 KB of JSON, the size the goals assume; Kubetide strips it on entry.
 */
const managedFields = [
  {
    manager: 'kube-controller-manager',
    operation: 'Update',
    apiVersion: 'v1',
    time: '2026-11-30T07:00:00Z',
    fieldsType: 'FieldsV1',
    fieldsV1: {
      'f:metadata': { 'f:generateName': {}, 'f:labels': { '.': {}, 'f:app': {}, 'f:pod-template-hash': {} } },
      'f:spec': {
        'f:containers': {
          'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:imagePullPolicy': {}, 'f:name': {} },
        },
        'f:dnsPolicy': {},
        'f:restartPolicy': {},
        'f:schedulerName': {},
        'f:terminationGracePeriodSeconds': {},
      },
    },
  },
  {
    manager: 'kubelet',
    operation: 'Update',
    apiVersion: 'v1',
    time: '2026-11-30T07:00:05Z',
    fieldsType: 'FieldsV1',
    subresource: 'status',
    fieldsV1: {
      'f:status': {
        'f:conditions': {
          'k:{"type":"ContainersReady"}': {
            '.': {},
            'f:lastTransitionTime': {},
            'f:status': {},
            'f:type': {},
          },
          'k:{"type":"Initialized"}': { '.': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} },
          'k:{"type":"Ready"}': { '.': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} },
        },
        'f:containerStatuses': {},
        'f:hostIP': {},
        'f:phase': {},
        'f:podIP': {},
        'f:podIPs': { '.': {}, 'k:{"ip":"10.244.0.1"}': { '.': {}, 'f:ip': {} } },
        'f:startTime': {},
      },
    },
  },
];

/**
 * `events` MODIFIED events cycling over `basePods`, each at the next resourceVersion with a changed
 * restart count and managedFields, as kubelet status updates look on a real cluster.
 */
export function generateReplayStream(basePods: readonly KubeObject[], events: number): ReplayStream {
  const listResourceVersion = Math.max(...basePods.map((pod) => Number(pod.metadata.resourceVersion) || 0));
  const chunks: Buffer[] = [];
  let pending: string[] = [];
  let pendingLength = 0;
  let bytes = 0;
  for (let index = 0; index < events; index++) {
    const base = basePods[index % basePods.length];
    const status = (base.status ?? {}) as { containerStatuses?: { restartCount?: number }[] };
    const object: KubeObject = {
      ...base,
      metadata: { ...base.metadata, resourceVersion: String(listResourceVersion + index + 1), managedFields },
      status: {
        ...status,
        containerStatuses: (status.containerStatuses ?? [{}]).map((container) => ({
          ...container,
          restartCount: index,
        })),
      },
    };
    const line = `{"type":"MODIFIED","object":${JSON.stringify(object)}}\n`;
    pending.push(line);
    pendingLength += line.length;
    if (pendingLength >= 1 << 20 || index === events - 1) {
      const chunk = Buffer.from(pending.join(''));
      chunks.push(chunk);
      bytes += chunk.length;
      pending = [];
      pendingLength = 0;
    }
  }
  return { basePods: [...basePods], listResourceVersion, chunks, events, bytes };
}

export async function startReplayServer(stream: ReplayStream): Promise<ReplayServer> {
  const listBody = JSON.stringify({
    kind: 'PodList',
    apiVersion: 'v1',
    metadata: { resourceVersion: String(stream.listResourceVersion) },
    items: stream.basePods,
  });
  const streamStarts: number[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://replay');
    if (url.pathname !== '/api/v1/pods') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          code: 404,
          reason: 'NotFound',
        }),
      );
      return;
    }
    const watch = url.searchParams.get('watch');
    if (watch !== '1' && watch !== 'true') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(listBody);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    response.flushHeaders();
    if (url.searchParams.get('resourceVersion') !== String(stream.listResourceVersion)) return;
    streamStarts.push(epochNow());
    void writeAll(response, stream.chunks);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    streamStarts,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function writeAll(response: ServerResponse, chunks: readonly Buffer[]): Promise<void> {
  for (const chunk of chunks) {
    if (response.destroyed) return;
    if (!response.write(chunk))
      await new Promise<void>((resolve) => {
        const resume = () => {
          response.off('drain', resume);
          response.off('close', resume);
          resolve();
        };
        response.on('drain', resume);
        response.on('close', resume);
      });
  }
}

/** Milliseconds since the epoch at sub-millisecond resolution, comparable between processes. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}
