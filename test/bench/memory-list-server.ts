// A LIST served from memory for the by-hand sync tools (gzip-sync.ts, managed-fields-sync.ts): the
// captured body of an embedded cluster's LIST, with no server work beside the client, so a sync
// contender's time is its own. A WATCH is held open and silent, as a quiet cluster's is.
import http from 'node:http';

/** What to answer a LIST with: its body, and its Content-Encoding when it is compressed. */
export interface ListBody {
  body: Buffer;
  encoding?: 'gzip';
}

export interface MemoryListServer {
  readonly url: string;
  /** Ends the watches held open (one per contender run, which holds its own until it exits). */
  dropWatches(): void;
  close(): void;
}

/** Serves `answer(request)` to every LIST on 127.0.0.1. */
export async function startMemoryListServer(
  answer: (request: http.IncomingMessage) => ListBody,
): Promise<MemoryListServer> {
  const held: http.ServerResponse[] = [];
  const server = http.createServer((request, response) => {
    if (/[?&]watch=(true|1)/.test(request.url ?? '')) {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      // Sent now, not with a first event: a client may wait for a watch's headers before it says it
      // is synced (client-node's informer does).
      response.flushHeaders();
      held.push(response);
      return;
    }
    const { body, encoding } = answer(request);
    response.writeHead(200, {
      'Content-Type': 'application/json',
      ...(encoding ? { 'Content-Encoding': encoding } : {}),
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    dropWatches: () => {
      for (const response of held.splice(0)) response.destroy();
    },
    close: () => server.close(),
  };
}
