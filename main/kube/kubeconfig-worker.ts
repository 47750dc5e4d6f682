// Does what would hold main's thread over a whole kubeconfig's YAML on a worker thread, one request a
// worker: a reading of the files while the app runs (kubeconfig-watch.ts; two YAML parses of a
// 500-context kubeconfig take ~150 ms), and an oidc user's refreshed tokens written back or read again
// (kubeconfig-persister.ts, which edits or reads the file in place). Posts the result as plain data,
// or why it failed (the error's message: KubeconfigMalformedError's never quotes the file).
import { parentPort, workerData } from 'node:worker_threads';
import { realClock } from '../cache/real-clock';
import { messageOf } from './errors';
import { Kubeconfig } from './kubeconfig';
import type { KubeconfigData } from './kubeconfig';
import { persistAuthProviderConfig, readAuthProviderConfig } from './kubeconfig-persister';

export type KubeconfigWorkerRequest =
  | { readonly kind: 'read'; readonly files: readonly string[] }
  | {
      readonly kind: 'persistAuthProvider';
      readonly file: string;
      readonly userName: string;
      readonly config: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'readAuthProvider'; readonly file: string; readonly userName: string };

export type KubeconfigWorkerReply =
  | { readonly data: KubeconfigData }
  | { readonly authProvider: Record<string, string> | undefined }
  | { readonly done: true }
  | { readonly failure: string };

async function answer(request: KubeconfigWorkerRequest): Promise<KubeconfigWorkerReply> {
  switch (request.kind) {
    case 'read':
      return { data: Kubeconfig.dataOfFiles(request.files) };
    case 'persistAuthProvider':
      await persistAuthProviderConfig(request.file, request.userName, request.config, realClock);
      return { done: true };
    case 'readAuthProvider':
      return { authProvider: await readAuthProviderConfig(request.file, request.userName) };
  }
}

const port = parentPort;
if (!port) throw new Error('kubeconfig-worker runs as a worker thread');
answer(workerData as KubeconfigWorkerRequest).then(
  (reply) => port.postMessage(reply),
  (error: unknown) => port.postMessage({ failure: messageOf(error) } satisfies KubeconfigWorkerReply),
);
