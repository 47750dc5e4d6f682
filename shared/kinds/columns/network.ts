// Network columns as kubectl's printers compute them (printService, printEndpoints, printIngress,
// printIngressClass, printNetworkPolicy).

import type { CellValue, KindPrinter } from './column-definition';
import {
  ageColumn,
  count,
  createdAt,
  field,
  formatLabelSelector,
  formatLabels,
  list,
  nameColumn,
  selectorColumn,
  stringColumn,
  text,
} from './column-definition';

/** The load balancer's IPs (else hostnames), sorted and de-duplicated, as loadBalancerStatusStringer. */
function loadBalancerAddresses(status: unknown): string[] {
  const addresses = new Set<string>();
  for (const ingress of list(field(status, 'loadBalancer'), 'ingress')) {
    const address = text(ingress['ip']) || text(ingress['hostname']);
    if (address) addresses.add(address);
  }
  return [...addresses].sort();
}

/** EXTERNAL-IP by service type; kubectl's 16-character truncation without -o wide is left to the view. */
function serviceExternalIP(spec: Record<string, unknown>, status: unknown): string {
  const externalIPs = (Array.isArray(spec['externalIPs']) ? spec['externalIPs'] : []) as string[];
  switch (text(spec['type']) ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const addresses = [...loadBalancerAddresses(status), ...externalIPs];
      return addresses.length > 0 ? addresses.join(',') : '<pending>';
    }
    case 'ExternalName':
      return text(spec['externalName']) ?? '';
    default:
      return '<unknown>';
  }
}

/** PORT(S): "80/TCP", or "80:30080/TCP" when a node port is allocated. */
function servicePorts(spec: Record<string, unknown>): string {
  const ports = list(spec, 'ports').map((port) => {
    const protocol = text(port['protocol']) ?? 'TCP';
    const nodePort = count(port['nodePort']);
    return nodePort > 0
      ? `${count(port['port'])}:${nodePort}/${protocol}`
      : `${count(port['port'])}/${protocol}`;
  });
  return ports.length > 0 ? ports.join(',') : '<none>';
}

export const servicePrinter: KindPrinter = {
  columns: [
    nameColumn,
    { name: 'Type', type: 'string', priority: 0 },
    { name: 'Cluster-IP', type: 'string', priority: 0 },
    { name: 'External-IP', type: 'string', priority: 0 },
    { name: 'Port(s)', type: 'string', priority: 0 },
    ageColumn,
    selectorColumn,
  ],
  cells(service): CellValue[] {
    const spec = field(service, 'spec');
    const clusterIPs = Array.isArray(spec['clusterIPs']) ? (spec['clusterIPs'] as string[]) : [];
    return [
      service.metadata.name ?? '',
      text(spec['type']) ?? 'ClusterIP',
      clusterIPs[0] ?? text(spec['clusterIP']) ?? '<none>',
      serviceExternalIP(spec, field(service, 'status')),
      servicePorts(spec),
      createdAt(service),
      formatLabels(spec['selector']),
    ];
  },
};

/** net.JoinHostPort: IPv6 addresses are bracketed. */
function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** formatEndpoints: the first three address:port pairs, then "+ N more...". */
export function formatEndpoints(subsets: readonly Record<string, unknown>[]): string {
  if (subsets.length === 0) return '<none>';
  const maximum = 3;
  const shown: string[] = [];
  let total = 0;
  for (const subset of subsets) {
    const addresses = list(subset, 'addresses').map((address) => text(address['ip']) ?? '');
    const ports = list(subset, 'ports');
    // Headless services may have no ports: their addresses are listed bare.
    const pairs =
      ports.length === 0
        ? [addresses]
        : ports.map((port) => addresses.map((address) => joinHostPort(address, count(port['port']))));
    for (const group of pairs) {
      total += group.length;
      shown.push(...group.slice(0, maximum - shown.length));
    }
  }
  return total > maximum ? `${shown.join(',')} + ${total - maximum} more...` : shown.join(',');
}

export const endpointsPrinter: KindPrinter = {
  columns: [nameColumn, { name: 'Endpoints', type: 'string', priority: 0 }, ageColumn],
  cells(endpoints): CellValue[] {
    return [endpoints.metadata.name ?? '', formatEndpoints(list(endpoints, 'subsets')), createdAt(endpoints)];
  },
};

/** HOSTS: up to three rule hosts, "*" when no rule names one, "+ N more..." counting rules past three. */
function ingressHosts(rules: readonly Record<string, unknown>[]): string {
  const maximum = 3;
  const hosts: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (hosts.length === maximum) more = true;
    const host = text(rule['host']) ?? '';
    if (!more && host !== '') hosts.push(host);
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${rules.length - maximum} more...` : hosts.join(',');
}

export const ingressPrinter: KindPrinter = {
  columns: [
    nameColumn,
    { name: 'Class', type: 'string', priority: 0 },
    { name: 'Hosts', type: 'string', priority: 0 },
    { name: 'Address', type: 'string', priority: 0 },
    { name: 'Ports', type: 'string', priority: 0 },
    ageColumn,
  ],
  cells(ingress): CellValue[] {
    const spec = field(ingress, 'spec');
    return [
      ingress.metadata.name ?? '',
      text(spec['ingressClassName']) ?? '<none>',
      ingressHosts(list(spec, 'rules')),
      loadBalancerAddresses(field(ingress, 'status')).join(','),
      list(spec, 'tls').length > 0 ? '80, 443' : '80',
      createdAt(ingress),
    ];
  },
};

export const networkPolicyPrinter: KindPrinter = {
  columns: [nameColumn, { name: 'Pod-Selector', type: 'string', priority: 0 }, ageColumn],
  cells(policy): CellValue[] {
    return [
      policy.metadata.name ?? '',
      formatLabelSelector(field(policy, 'spec')['podSelector'] ?? {}) || '<none>',
      createdAt(policy),
    ];
  },
};

/** PARAMETERS: "Kind.apiGroup/name" (the group left out when unset), "<none>" without parameters. */
function ingressClassParameters(spec: Record<string, unknown>): string {
  const parameters = spec['parameters'];
  if (typeof parameters !== 'object' || parameters === null) return '<none>';
  const { kind, apiGroup, name } = parameters as Record<string, unknown>;
  const group = text(apiGroup);
  return `${text(kind) ?? ''}${group !== undefined ? `.${group}` : ''}/${text(name) ?? ''}`;
}

export const ingressClassPrinter: KindPrinter = {
  columns: [nameColumn, stringColumn('Controller'), stringColumn('Parameters'), ageColumn],
  cells(ingressClass): CellValue[] {
    const spec = field(ingressClass, 'spec');
    return [
      ingressClass.metadata.name ?? '',
      text(spec['controller']) ?? '',
      ingressClassParameters(spec),
      createdAt(ingressClass),
    ];
  },
};
