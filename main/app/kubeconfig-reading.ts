// Kubeconfig work taken off main's thread (main/kube/kubeconfig-worker.ts): the readings taken while
// the app runs, and an oidc user's tokens written back and read again. The first reading, at start, is
// read in place, before any window waits on main.
import { startHistoryWorker } from '../history/history-worker';
import { Kubeconfig } from '../kube/kubeconfig';
import type { AuthProviderFiles } from '../kube/kubeconfig-persister';
import type { KubeconfigWorkerReply, KubeconfigWorkerRequest } from '../kube/kubeconfig-worker';

/** `request` answered by a worker thread of its own; rejects with the worker's reason. */
function inWorker(request: KubeconfigWorkerRequest): Promise<KubeconfigWorkerReply> {
  return new Promise((resolve, reject) => {
    const worker = startHistoryWorker('kubeconfig-worker', request);
    worker.once('message', (reply: KubeconfigWorkerReply) => {
      if ('failure' in reply) reject(new Error(reply.failure));
      else resolve(reply);
      void worker.terminate();
    });
    worker.once('error', reject);
    // After a reply this settles nothing; before one, the worker died without answering.
    worker.once('exit', (code) => reject(new Error(`the kubeconfig worker exited with code ${code}`)));
  });
}

/** `files` read and merged in a worker thread; rejects with why they do not read as a kubeconfig. */
export async function readKubeconfigOffMain(files: readonly string[]): Promise<Kubeconfig> {
  // None there (the kubeconfig was removed): an empty reading, which reads no file.
  if (files.length === 0) return Kubeconfig.fromFiles([]);
  const reply = await inWorker({ kind: 'read', files: [...files] });
  if (!('data' in reply)) throw new Error('the kubeconfig worker answered a reading with something else');
  return Kubeconfig.fromData(reply.data);
}

/** An oidc user's tokens written back and read again on a worker thread. */
export const workerAuthProviderFiles: AuthProviderFiles = {
  async persist(file, userName, config) {
    await inWorker({ kind: 'persistAuthProvider', file, userName, config: { ...config } });
  },
  async read(file, userName) {
    const reply = await inWorker({ kind: 'readAuthProvider', file, userName });
    return 'authProvider' in reply ? reply.authProvider : undefined;
  },
};
