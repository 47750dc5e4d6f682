// EndpointSlice columns as kubectl's printEndpointSlice computes them: ADDRESSTYPE, PORTS (each port's
// number, else its name, else "*") and ENDPOINTS (every endpoint's addresses), three of each at most
// and then "+ N more...", "<unset>" for none.

import type { CellValue, KindPrinter } from './column-definition';
import { ageColumn, createdAt, list, nameColumn, stringColumn, text } from './column-definition';

/** formatDiscoveryPorts' and formatDiscoveryEndpoints' maximum. */
const shown = 3;

/** listWithMoreString. */
function listWithMore(values: readonly string[]): string {
  if (values.length > shown) return `${values.slice(0, shown).join(',')} + ${values.length - shown} more...`;
  return values.length === 0 ? '<unset>' : values.join(',');
}

export const endpointSlicePrinter: KindPrinter = {
  columns: [
    nameColumn,
    stringColumn('AddressType'),
    stringColumn('Ports'),
    stringColumn('Endpoints'),
    ageColumn,
  ],
  cells(slice): CellValue[] {
    const ports = list(slice, 'ports').map((port) =>
      typeof port['port'] === 'number' ? String(port['port']) : (text(port['name']) ?? '*'),
    );
    const addresses = list(slice, 'endpoints').flatMap((endpoint) =>
      Array.isArray(endpoint['addresses']) ? (endpoint['addresses'] as unknown[]).map(String) : [],
    );
    return [
      slice.metadata.name ?? '',
      text(slice['addressType']) ?? '',
      listWithMore(ports),
      listWithMore(addresses),
      createdAt(slice),
    ];
  },
};
