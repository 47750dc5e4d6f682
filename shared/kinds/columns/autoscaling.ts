// HorizontalPodAutoscaler columns as kubectl's printHorizontalPodAutoscaler computes them from
// autoscaling/v2: REFERENCE "Kind/name", TARGETS each metric's current value over its target (the
// status's metric at the same index as the spec's, "<unknown>" until the controller measured it),
// two at most and then "+ N more...", MINPODS "<unset>" when omitted.

import type { KubeObject } from '../../kube/object';
import type { CellValue, KindPrinter } from './column-definition';
import {
  ageColumn,
  count,
  createdAt,
  field,
  integerColumn,
  list,
  nameColumn,
  stringColumn,
  text,
} from './column-definition';

/** formatHPAMetrics' maximum: the metrics printed before "+ N more...". */
const metricsShown = 2;

/**
 * A quantity as the API server serialized it (Quantity.String(), already canonical in JSON); a missing
 * one is a nil *Quantity, which Go prints as "<nil>".
 */
function quantity(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '<nil>';
}

/** "current/target" of a metric whose target is a value or an average value ("(avg)" for objects and externals). */
function valueMetric(
  source: Record<string, unknown>,
  status: Record<string, unknown> | undefined,
  averageSuffix: string,
): string {
  const target = field(source, 'target');
  const current = field(status, 'current');
  if (target['averageValue'] !== undefined) {
    const measured =
      status && current['averageValue'] !== undefined ? quantity(current['averageValue']) : '<unknown>';
    return `${measured}/${quantity(target['averageValue'])}${averageSuffix}`;
  }
  const measured = status ? quantity(current['value']) : '<unknown>';
  return `${measured}/${quantity(target['value'])}`;
}

/** "name: current/target" of a resource metric: an average value, or a utilization in percent ("<auto>"). */
function resourceMetric(
  source: Record<string, unknown>,
  status: Record<string, unknown> | undefined,
): string {
  const name = text(source['name']) ?? '';
  const target = field(source, 'target');
  const current = field(status, 'current');
  if (target['averageValue'] !== undefined) {
    const measured = status ? quantity(current['averageValue']) : '<unknown>';
    return `${name}: ${measured}/${quantity(target['averageValue'])}`;
  }
  const measured =
    status && typeof current['averageUtilization'] === 'number'
      ? `${current['averageUtilization']}%`
      : '<unknown>';
  const wanted =
    typeof target['averageUtilization'] === 'number' ? `${target['averageUtilization']}%` : '<auto>';
  return `${name}: ${measured}/${wanted}`;
}

/** The status entry of the same type at `index`, as formatHPAMetrics pairs them (by position). */
function statusAt(
  statuses: Record<string, unknown>[],
  index: number,
  member: string,
): Record<string, unknown> | undefined {
  const status = statuses[index];
  const value = status?.[member];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** TARGETS, formatHPAMetrics over spec.metrics and status.currentMetrics. */
export function formatHorizontalPodAutoscalerMetrics(autoscaler: KubeObject): string {
  const specs = list(field(autoscaler, 'spec'), 'metrics');
  if (specs.length === 0) return '<none>';
  const statuses = list(field(autoscaler, 'status'), 'currentMetrics');
  const texts = specs.map((spec, index) => {
    switch (spec['type']) {
      case 'External':
        return valueMetric(field(spec, 'external'), statusAt(statuses, index, 'external'), ' (avg)');
      case 'Pods': {
        const pods = statusAt(statuses, index, 'pods');
        const measured = pods ? quantity(field(pods, 'current')['averageValue']) : '<unknown>';
        return `${measured}/${quantity(field(field(spec, 'pods'), 'target')['averageValue'])}`;
      }
      case 'Object':
        return valueMetric(field(spec, 'object'), statusAt(statuses, index, 'object'), ' (avg)');
      case 'Resource':
        return resourceMetric(field(spec, 'resource'), statusAt(statuses, index, 'resource'));
      case 'ContainerResource':
        return resourceMetric(
          field(spec, 'containerResource'),
          statusAt(statuses, index, 'containerResource'),
        );
      default:
        return '<unknown type>';
    }
  });
  if (texts.length <= metricsShown) return texts.join(', ');
  return `${texts.slice(0, metricsShown).join(', ')} + ${texts.length - metricsShown} more...`;
}

export const horizontalPodAutoscalerPrinter: KindPrinter = {
  columns: [
    nameColumn,
    stringColumn('Reference'),
    stringColumn('Targets'),
    stringColumn('MinPods'),
    integerColumn('MaxPods'),
    integerColumn('Replicas'),
    ageColumn,
  ],
  cells(autoscaler): CellValue[] {
    const spec = field(autoscaler, 'spec');
    const target = field(spec, 'scaleTargetRef');
    const minReplicas = spec['minReplicas'];
    return [
      autoscaler.metadata.name ?? '',
      `${text(target['kind']) ?? ''}/${text(target['name']) ?? ''}`,
      formatHorizontalPodAutoscalerMetrics(autoscaler),
      typeof minReplicas === 'number' ? String(minReplicas) : '<unset>',
      count(spec['maxReplicas']),
      count(field(autoscaler, 'status')['currentReplicas']),
      createdAt(autoscaler),
    ];
  },
};
