// Label and field selectors as the apiserver applies them to LIST and WATCH. Parsing and matching are
// shared/selectors'; which fields a kind may be selected on is the server's business, so unknown
// fields are rejected here with 400, as the apiserver's field label conversion does.
import type { KubeObject } from '../../shared/kube/object';
import type { FieldSelector } from '../../shared/selectors/field-selector';
import { objectFieldGetter, parseFieldSelector } from '../../shared/selectors/field-selector';
import type { LabelSelector } from '../../shared/selectors/label-selector';
import { parseLabelSelector } from '../../shared/selectors/label-selector';
import { SelectorParseError } from '../../shared/selectors/selector-parse-error';
import { badRequest } from './api-errors';
import type { ResourceType } from './resource-type';

export interface ObjectFilter {
  /** True when no selector narrows the result (remainingItemCount is then meaningful). */
  readonly isEverything: boolean;
  matches(object: KubeObject): boolean;
}

const commonFields = ['metadata.name', 'metadata.namespace'];

/** Selectable fields per kind beyond metadata.name/namespace (ToSelectableFields in pkg/registry). */
const selectableFields: Record<string, string[]> = {
  Pod: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.podIPs',
    'status.nominatedNodeName',
  ],
  Event: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  Secret: ['type'],
  Namespace: ['status.phase', 'name'],
  Node: ['spec.unschedulable'],
  ReplicaSet: ['status.replicas'],
  Job: ['status.successful'],
};

function checkFields(type: ResourceType, selector: FieldSelector): void {
  const allowed = [...commonFields, ...(type.definitionName ? [] : (selectableFields[type.kind] ?? []))];
  for (const requirement of selector.requirements) {
    if (allowed.includes(requirement.field)) continue;
    if (type.definitionName)
      throw badRequest(
        `"${requirement.field}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
      );
    throw badRequest(`field label not supported: ${requirement.field}`);
  }
}

function parse<T>(text: string, parser: (text: string) => T, what: string): T {
  try {
    return parser(text);
  } catch (error) {
    if (error instanceof SelectorParseError) throw badRequest(`${error.message} (${what} "${text}")`);
    throw error;
  }
}

export function parseObjectFilter(
  type: ResourceType,
  labelSelector: string,
  fieldSelector: string,
): ObjectFilter {
  const labels: LabelSelector = parse(labelSelector, parseLabelSelector, 'labelSelector');
  const fields: FieldSelector = parse(fieldSelector, parseFieldSelector, 'fieldSelector');
  checkFields(type, fields);
  const noLabels = labels.isEmpty();
  const noFields = fields.isEmpty();
  return {
    isEverything: noLabels && noFields,
    matches: (object) =>
      (noLabels || labels.matches(object.metadata.labels)) &&
      (noFields || fields.matches(objectFieldGetter(object))),
  };
}
