// The ui bench's floor server: ui-floor.html and the cluster's pods as plain rows, on loopback port 0.
// The rows are projected here, before the page opens, so the floor's first rows time one fetch of
// ready rows and their first paint: what any viewer of these rows pays in this browser.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RowProjector } from '../../main/bridge/row-projection';
import { printerFor } from '../../shared/kinds/columns';
import type { KubeList } from '../../shared/kube/object';
import { getBody, podsResource } from './harness';

const pageSize = 5_000;

interface FloorRow {
  key: string;
  labels: string;
  cells: string[];
}

/** Every pod of the cluster at `url` as a floor row (name, namespace, then kubectl's cells), paged. */
async function floorRows(url: string): Promise<FloorRow[]> {
  const projector = new RowProjector(printerFor(podsResource));
  const now = Date.now();
  const rows: FloorRow[] = [];
  let next = '';
  do {
    const query = `limit=${pageSize}${next ? `&continue=${encodeURIComponent(next)}` : ''}`;
    const page = JSON.parse((await getBody(`${url}/api/v1/pods?${query}`)).toString('utf8')) as KubeList;
    for (const pod of page.items) {
      const row = projector.project(pod, now);
      rows.push({
        key: row.key,
        labels: Object.entries(row.labels)
          .map(([key, value]) => `${key}=${value}`)
          .join(','),
        cells: [row.name, row.namespace, ...row.cells.map((cell) => String(cell ?? ''))],
      });
    }
    next = (page.metadata as { continue?: string } | undefined)?.continue ?? '';
  } while (next);
  return rows;
}

export interface FloorServer {
  readonly url: string;
  readonly rows: number;
  close(): Promise<void>;
}

export async function startFloorServer(clusterUrl: string): Promise<FloorServer> {
  const html = readFileSync(new URL('./ui-floor.html', import.meta.url));
  const rows = await floorRows(clusterUrl);
  const body = Buffer.from(JSON.stringify(rows));
  const server = createServer((request, response) => {
    if (request.url === '/rows.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    } else if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    rows: rows.length,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
