// What a log view reads, from the object the user picked: a pod's containers, or every pod of a
// workload or of the filter bar's label selector (merged, stern-style). Kinds without logs have none.
import type { GroupVersionResource } from '../../../shared/kube/object';
import type { LogTarget } from '../../../shared/protocol/log-messages';
import type { Row } from '../../../shared/protocol/row';

export type LogSubject =
  | { kind: 'pod'; namespace: string; name: string }
  | { kind: 'workload'; gvr: GroupVersionResource; kindName: string; namespace: string; name: string }
  /** The pods the filter bar's label selector matches, in one namespace or all. */
  | { kind: 'selector'; labelSelector: string; namespace?: string };

const workloadResources = new Set(['deployments', 'statefulsets', 'daemonsets', 'replicasets', 'jobs']);

/** A title for the view: "Pod web-1", "Deployment web", "Pods app=web in shop". */
export function logSubjectTitle(subject: LogSubject): [string, string] {
  if (subject.kind === 'pod') return ['Pod', subject.name];
  if (subject.kind === 'workload') return [subject.kindName, subject.name];
  return ['Pods', `${subject.labelSelector}${subject.namespace ? ` in ${subject.namespace}` : ''}`];
}

/** The subject of a row of `gvr`, or undefined when the kind has no logs. */
export function logSubjectOf(gvr: GroupVersionResource, kindName: string, row: Row): LogSubject | undefined {
  if (gvr.group === '' && gvr.resource === 'pods')
    return { kind: 'pod', namespace: row.namespace, name: row.name };
  if ((gvr.group === 'apps' || gvr.group === 'batch') && workloadResources.has(gvr.resource))
    return { kind: 'workload', gvr, kindName, namespace: row.namespace, name: row.name };
  return undefined;
}

/** The stream's target; `container` undefined means every container (a workload only). */
export function logTargetOf(subject: LogSubject, container: string | undefined): LogTarget | undefined {
  if (subject.kind === 'selector')
    return {
      kind: 'selector',
      labelSelector: subject.labelSelector,
      ...(subject.namespace !== undefined ? { namespace: subject.namespace } : {}),
      ...(container !== undefined ? { container } : {}),
    };
  if (subject.kind === 'pod')
    return container === undefined
      ? undefined
      : { kind: 'pod', namespace: subject.namespace, name: subject.name, container };
  return {
    kind: 'workload',
    gvr: subject.gvr,
    namespace: subject.namespace,
    name: subject.name,
    ...(container !== undefined ? { container } : {}),
  };
}

export interface ContainerChoice {
  name: string;
  /** 'init' and 'ephemeral' containers are labelled as such in the picker. */
  role: 'container' | 'init' | 'ephemeral';
}

type Json = Record<string, unknown>;

/** Every container of a pod spec (or a workload's pod template spec), init and ephemeral ones included. */
export function containerChoices(podSpec: Json | undefined): ContainerChoice[] {
  const choices: ContainerChoice[] = [];
  const add = (field: string, role: ContainerChoice['role']) => {
    for (const container of (podSpec?.[field] as Json[] | undefined) ?? [])
      choices.push({ name: String(container.name), role });
  };
  add('containers', 'container');
  add('initContainers', 'init');
  add('ephemeralContainers', 'ephemeral');
  return choices;
}

/** kubectl's default container: the annotation kubectl.kubernetes.io/default-container, else the first. */
export function defaultContainer(metadata: Json | undefined, choices: ContainerChoice[]): string | undefined {
  const annotated = ((metadata?.annotations as Json | undefined) ?? {})[
    'kubectl.kubernetes.io/default-container'
  ];
  if (typeof annotated === 'string' && choices.some((choice) => choice.name === annotated)) return annotated;
  return choices.find((choice) => choice.role === 'container')?.name ?? choices[0]?.name;
}
