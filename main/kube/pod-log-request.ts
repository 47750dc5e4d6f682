// GET /api/v1/namespaces/{namespace}/pods/{name}/log through the RestClient: the credentials stay in
// main with the client, and a non-2xx reply becomes the API server's StatusError (kubectl prints the
// same message), which PodLogStream uses to tell a gone pod from a dropped connection.
import type { PodLogOpener } from './pod-log-stream';
import type { RestClient } from './rest-client';

/** The opener of one pod's log requests. */
export function podLogOpener(client: RestClient, namespace: string, pod: string): PodLogOpener {
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/log`;
  return (query, signal) =>
    client
      .stream({
        path,
        query,
        accept: '*/*',
        description: { verb: 'get', resource: 'pods/log', namespace },
        signal,
      })
      .then((response) => response.body);
}
