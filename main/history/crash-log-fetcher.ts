// Reads a crash's logs for the Recorder's CrashLogCapture through the session's pod log opener (the
// RestClient: credentials stay in main). The API server bounds the reply with limitBytes; the text is
// also cut here at that bound, so a server that ignores the parameter cannot make a crash cost more.
import type { CrashLogFetcher } from './crash-log-fetches';
import type { PodLogOpener } from '../kube/pod-log-stream';

/** Each fetch gives up after this long: a crash's logs are read once, not waited on. */
const fetchTimeoutMs = 30_000;

export function crashLogFetcher(
  openPodLog: (namespace: string, pod: string) => PodLogOpener,
): CrashLogFetcher {
  return async (request) => {
    const open = openPodLog(request.namespace, request.pod);
    const body = await open(
      {
        container: request.container,
        previous: request.previous || undefined,
        limitBytes: request.limitBytes,
        tailLines: request.tailLines,
      },
      AbortSignal.timeout(fetchTimeoutMs),
    );
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      bytes += chunk.length;
      if (bytes >= request.limitBytes) {
        body.destroy();
        break;
      }
    }
    return Buffer.concat(chunks).subarray(0, request.limitBytes).toString();
  };
}
