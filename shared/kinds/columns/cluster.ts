// Cluster-level columns as kubectl's printers compute them (printNode, printNamespace, printEvent,
// printLease).

import type { KubeObject } from '../../kube/object';
import type { CellValue, ColumnDefinition, KindPrinter } from './column-definition';
import {
  ageColumn,
  count,
  createdAt,
  field,
  list,
  nameColumn,
  stringColumn,
  text,
  timestamp,
} from './column-definition';
import { parseQuantity } from '../../kube/quantity';

/** Ready or NotReady from the Ready condition (Unknown without one), then SchedulingDisabled if cordoned. */
export function nodeStatus(node: KubeObject): string {
  const ready = list(field(node, 'status'), 'conditions').find((condition) => condition['type'] === 'Ready');
  const status = [ready === undefined ? 'Unknown' : ready['status'] === 'True' ? 'Ready' : 'NotReady'];
  if (field(node, 'spec')['unschedulable'] === true) status.push('SchedulingDisabled');
  return status.join(',');
}

const nodeRolePrefix = 'node-role.kubernetes.io/';
const legacyNodeRoleLabel = 'kubernetes.io/role';

/** ROLES: the names after node-role.kubernetes.io/ and the value of kubernetes.io/role, sorted. */
export function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
    if (key.startsWith(nodeRolePrefix)) {
      const role = key.slice(nodeRolePrefix.length);
      if (role !== '') roles.add(role);
    } else if (key === legacyNodeRoleLabel && value !== '') {
      roles.add(value);
    }
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function nodeAddress(node: KubeObject, type: string): string {
  const address = list(field(node, 'status'), 'addresses').find((candidate) => candidate['type'] === type);
  return text(address?.['address']) ?? '<none>';
}

function allocatable(node: KubeObject, resource: string): number | null {
  const quantity = text(field(field(node, 'status'), 'allocatable')[resource]);
  return (quantity === undefined ? undefined : parseQuantity(quantity)) ?? null;
}

export const nodePrinter: KindPrinter = {
  columns: [
    nameColumn,
    stringColumn('Status'),
    stringColumn('Roles'),
    ageColumn,
    stringColumn('Version'),
    stringColumn('Internal-IP', 1),
    stringColumn('External-IP', 1),
    stringColumn('OS-Image', 1),
    stringColumn('Kernel-Version', 1),
    stringColumn('Container-Runtime', 1),
    // What the metrics columns' %CPU and %MEM are of, as kubectl top node computes them: cores and bytes.
    { name: 'CPU Allocatable', type: 'number', priority: 1, hidden: true },
    { name: 'Memory Allocatable', type: 'number', priority: 1, hidden: true },
  ],
  cells(node): CellValue[] {
    const info = field(field(node, 'status'), 'nodeInfo');
    return [
      node.metadata.name ?? '',
      nodeStatus(node),
      nodeRoles(node),
      createdAt(node),
      text(info['kubeletVersion']) ?? '',
      nodeAddress(node, 'InternalIP'),
      nodeAddress(node, 'ExternalIP'),
      text(info['osImage']) || '<unknown>',
      text(info['kernelVersion']) || '<unknown>',
      text(info['containerRuntimeVersion']) || '<unknown>',
      allocatable(node, 'cpu'),
      allocatable(node, 'memory'),
    ];
  },
};

export const namespacePrinter: KindPrinter = {
  columns: [nameColumn, stringColumn('Status'), ageColumn],
  cells(namespace): CellValue[] {
    return [
      namespace.metadata.name ?? '',
      text(field(namespace, 'status')['phase']) ?? '',
      createdAt(namespace),
    ];
  },
};

/**
 * An event's first and last sighting and count across both event APIs: series (events.k8s.io) wins over
 * lastTimestamp, eventTime stands in for a missing firstTimestamp, and a singleton counts 1.
 */
export function eventOccurrences(event: KubeObject): {
  firstSeen: number | null;
  lastSeen: number | null;
  count: number;
} {
  const firstSeen = timestamp(event['firstTimestamp']) ?? timestamp(event['eventTime']);
  const series = event['series'];
  if (typeof series === 'object' && series !== null) {
    return {
      firstSeen,
      lastSeen: timestamp(field(event, 'series')['lastObservedTime']),
      count: count(field(event, 'series')['count']),
    };
  }
  return {
    firstSeen,
    lastSeen: timestamp(event['lastTimestamp']) ?? firstSeen,
    count: count(event['count']) || 1,
  };
}

const seenColumn = (name: string, priority: 0 | 1): ColumnDefinition => ({
  name,
  type: 'date',
  priority,
  format: 'age',
  missing: '<unknown>',
});

export const eventPrinter: KindPrinter = {
  columns: [
    seenColumn('Last Seen', 0),
    stringColumn('Type'),
    stringColumn('Reason'),
    stringColumn('Object'),
    stringColumn('Subobject', 1),
    stringColumn('Source', 1),
    stringColumn('Message'),
    seenColumn('First Seen', 1),
    { name: 'Count', type: 'integer', priority: 1 },
    { name: 'Name', type: 'string', priority: 1, format: 'name' },
  ],
  cells(event): CellValue[] {
    const involved = field(event, 'involvedObject');
    const kind = (text(involved['kind']) ?? '').toLowerCase();
    const name = text(involved['name']) ?? '';
    const source = field(event, 'source');
    const component = text(source['component']) || text(event['reportingComponent']) || '';
    const instance = text(source['host']) || text(event['reportingInstance']) || '';
    const occurrences = eventOccurrences(event);
    return [
      occurrences.lastSeen,
      text(event['type']) ?? '',
      text(event['reason']) ?? '',
      name === '' ? kind : `${kind}/${name}`,
      text(involved['fieldPath']) ?? '',
      instance === '' ? component : `${component}, ${instance}`,
      (text(event['message']) ?? '').trim(),
      occurrences.firstSeen,
      occurrences.count,
      event.metadata.name ?? '',
    ];
  },
};

export const leasePrinter: KindPrinter = {
  columns: [nameColumn, stringColumn('Holder'), ageColumn],
  cells(lease): CellValue[] {
    return [lease.metadata.name ?? '', text(field(lease, 'spec')['holderIdentity']) ?? '', createdAt(lease)];
  },
};
