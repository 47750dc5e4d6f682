// metrics.k8s.io/v1beta1 as metrics-server serves it through its APIService: discovery of the group
// and its two read-only resources, PodMetrics (per container) and NodeMetrics, listed across or within
// namespaces or got by name, narrowed by label selector (on the pod's or node's labels, which
// metrics-server copies) and by metadata.name / metadata.namespace field selectors. Neither resource
// can be watched. Values are metrics-server's units: nanocores and kibibytes.
import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../../shared/kube/object';
import { StatusError, newStatus } from '../../shared/kube/status';
import { objectFieldGetter, parseFieldSelector } from '../../shared/selectors/field-selector';
import { parseLabelSelector } from '../../shared/selectors/label-selector';
import { SelectorParseError } from '../../shared/selectors/selector-parse-error';
import { badRequest, methodNotAllowed } from './api-errors';
import { formatTime } from './clock';
import { sendJson, sendText } from './http-io';
import { kibibytes, nanocores, podMetricsText } from './pod-metrics-text';
import { streamList } from './list-stream';
import type { ResponseCompression } from './response-compression';
import type { MetricsScraper, NodeUsage, PodUsage } from './metrics-usage';
import type { ResourcePath } from './request-path';

export const metricsGroup = 'metrics.k8s.io';
export const metricsVersion = 'v1beta1';
const groupVersion = `${metricsGroup}/${metricsVersion}`;

export function metricsGroupEntry(): object {
  const version = { groupVersion, version: metricsVersion };
  return { name: metricsGroup, versions: [version], preferredVersion: version };
}

export function metricsResourceList(): object {
  const resource = (name: string, kind: string, namespaced: boolean) => ({
    name,
    singularName: '',
    namespaced,
    kind,
    verbs: ['get', 'list'],
  });
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion,
    resources: [resource('nodes', 'NodeMetrics', false), resource('pods', 'PodMetrics', true)],
  };
}

/** The discovery document of a metrics.k8s.io path, or undefined for any other group. */
export function metricsDiscovery(group: string, version?: string): object | undefined {
  if (group !== metricsGroup) return undefined;
  if (version === undefined) return { kind: 'APIGroup', apiVersion: 'v1', ...metricsGroupEntry() };
  return version === metricsVersion ? metricsResourceList() : undefined;
}

/** Nanocores and kibibytes, as metrics-server writes usage (kubectl reads any quantity). */
function usage(cpu: number, memory: number): Record<string, string> {
  return { cpu: nanocores(cpu), memory: kibibytes(memory) };
}

function metricsMeta(object: KubeObject, now: number): object {
  const { name, namespace, labels } = object.metadata;
  return {
    name,
    ...(namespace ? { namespace } : {}),
    creationTimestamp: formatTime(now),
    ...(labels ? { labels } : {}),
  };
}

function notFound(resource: string, name: string): StatusError {
  return new StatusError(
    newStatus(404, 'NotFound', `${resource}.${metricsGroup} "${name}" not found`, {
      name,
      group: metricsGroup,
      kind: resource,
    }),
  );
}

function selector<T>(text: string, parser: (text: string) => T, what: string): T {
  try {
    return parser(text);
  } catch (error) {
    if (error instanceof SelectorParseError) throw badRequest(`${error.message} (${what} "${text}")`);
    throw error;
  }
}

function itemFilter(query: URLSearchParams): (object: KubeObject) => boolean {
  const labels = selector(query.get('labelSelector') ?? '', parseLabelSelector, 'labelSelector');
  const fields = selector(query.get('fieldSelector') ?? '', parseFieldSelector, 'fieldSelector');
  for (const { field } of fields.requirements)
    if (field !== 'metadata.name' && field !== 'metadata.namespace')
      throw badRequest(`field label not supported: ${field}`);
  return (object) => labels.matches(object.metadata.labels) && fields.matches(objectFieldGetter(object));
}

export class MetricsApi {
  constructor(
    private readonly scraper: MetricsScraper,
    private readonly now: () => number,
  ) {}

  /** Answers a GET already authorized for `verb` ("get" or "list"); anything else is 405. */
  async handle(
    path: ResourcePath,
    verb: string,
    query: URLSearchParams,
    response: ServerResponse,
    /** Gzips a list over 128 KiB (the client accepts it and the cluster compresses), as the aggregator would. */
    compression?: ResponseCompression,
  ): Promise<void> {
    if (verb !== 'get' && verb !== 'list') throw methodNotAllowed();
    if (path.subresource !== undefined || (path.resource !== 'pods' && path.resource !== 'nodes'))
      throw new StatusError(
        newStatus(404, 'NotFound', 'the server could not find the requested resource', {}),
      );
    const now = this.now();
    const scrape = this.scraper.scrape(now);
    const window = `${this.scraper.resolutionMs / 1000}s`;
    const timestamp = formatTime(scrape.timestamp);
    const nowText = JSON.stringify(formatTime(now));
    const timestampText = JSON.stringify(timestamp);
    const windowText = JSON.stringify(window);
    const podMetrics = (item: PodUsage) =>
      podMetricsText(item, groupVersion, nowText, timestampText, windowText);
    const nodeMetrics = ({ node, cpu, memory }: NodeUsage) => ({
      kind: 'NodeMetrics',
      apiVersion: groupVersion,
      metadata: metricsMeta(node, now),
      timestamp,
      window,
      usage: usage(cpu, memory),
    });
    if (path.resource === 'pods') {
      if (verb === 'get') {
        const found = scrape.pods.get(`${path.namespace ?? ''}/${path.name}`);
        if (!found) throw notFound('podmetrics', path.name ?? '');
        return sendText(response, 200, podMetrics(found));
      }
      const matches = itemFilter(query);
      const items = [...scrape.pods.values()].filter(
        ({ pod }) =>
          (path.namespace === undefined || pod.metadata.namespace === path.namespace) && matches(pod),
      );
      return streamList(
        response,
        `{"kind":"PodMetricsList","apiVersion":"${groupVersion}","metadata":{},"items":[`,
        items,
        podMetrics,
        ']}',
        compression,
      );
    }
    if (path.namespace !== undefined)
      throw new StatusError(
        newStatus(404, 'NotFound', 'the server could not find the requested resource', {}),
      );
    if (verb === 'get') {
      const found = scrape.nodes.get(path.name ?? '');
      if (!found) throw notFound('nodemetrics', path.name ?? '');
      return sendJson(response, 200, nodeMetrics(found));
    }
    const matches = itemFilter(query);
    const items = [...scrape.nodes.values()].filter(({ node }) => matches(node)).map(nodeMetrics);
    return sendJson(response, 200, {
      kind: 'NodeMetricsList',
      apiVersion: groupVersion,
      metadata: {},
      items,
    });
  }
}
