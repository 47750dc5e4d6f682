// A reading of kubeconfig files taken off main's thread (main/kube/kubeconfig-worker.ts), for the
// readings taken while the app runs; the first, at start, is read in place, before any window waits.
import { startHistoryWorker } from '../history/history-worker';
import { Kubeconfig } from '../kube/kubeconfig';
import type { KubeconfigWorkerReply } from '../kube/kubeconfig-worker';

/** `files` read and merged in a worker thread; rejects with why they do not read as a kubeconfig. */
export function readKubeconfigOffMain(files: readonly string[]): Promise<Kubeconfig> {
  if (files.length === 0) {
    return Promise.resolve(
      Kubeconfig.fromData({
        clusters: [],
        users: [],
        contexts: [],
        currentContext: '',
        sources: [],
        userOrigins: [],
      }),
    );
  }
  return new Promise((resolve, reject) => {
    const worker = startHistoryWorker('kubeconfig-worker', { files: [...files] });
    worker.once('message', (reply: KubeconfigWorkerReply) => {
      if ('data' in reply) resolve(Kubeconfig.fromData(reply.data));
      else reject(new Error(reply.failure));
      void worker.terminate();
    });
    worker.once('error', reject);
    // After a reply this settles nothing; before one, the worker died without answering.
    worker.once('exit', (code) => reject(new Error(`the kubeconfig reader exited with code ${code}`)));
  });
}
