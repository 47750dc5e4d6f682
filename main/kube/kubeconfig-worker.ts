// Reads and merges kubeconfig files on a worker thread, so that a reading taken while the app runs
// (the files changed: kubeconfig-watch.ts) never holds main's thread: two YAML parses of a
// 500-context kubeconfig take ~150 ms. Posts the reading as plain data (Kubeconfig.dataOfFiles), or
// why it failed (the error's message: KubeconfigMalformedError's never quotes the file).
import { parentPort, workerData } from 'node:worker_threads';
import { messageOf } from './errors';
import { Kubeconfig } from './kubeconfig';
import type { KubeconfigData } from './kubeconfig';

export type KubeconfigWorkerReply = { readonly data: KubeconfigData } | { readonly failure: string };

const port = parentPort;
if (!port) throw new Error('kubeconfig-worker runs as a worker thread');
const { files } = workerData as { files: string[] };
let reply: KubeconfigWorkerReply;
try {
  reply = { data: Kubeconfig.dataOfFiles(files) };
} catch (error) {
  reply = { failure: messageOf(error) };
}
port.postMessage(reply);
