// Row: what the renderer holds per object. Full objects stay in main (managedFields stripped); a row
// carries the columns `kubectl get` prints plus the values the filter bar indexes, so 150k of them fit
// in a renderer and cross the IPC boundary cheaply.

/** One raw column value (an age is epoch milliseconds, a count a number); the view formats it. */
export type CellValue = string | number | boolean | null;

/** metadata.ownerReferences, trimmed to what owner navigation and the owner index need. */
export interface OwnerSummary {
  kind: string;
  name: string;
  uid: string;
  controller: boolean;
}

export interface Row {
  /** client-go's MetaNamespaceKeyFunc: "namespace/name", or "name" for cluster-scoped objects. */
  key: string;
  uid: string;
  name: string;
  /** "" for cluster-scoped objects. */
  namespace: string;
  /** Opaque: compared for equality only, never ordered. */
  resourceVersion: string;
  labels: Record<string, string>;
  owners: OwnerSummary[];
  /** The node an object runs on (a Pod's spec.nodeName), for the node index and filter. */
  node?: string;
  /** The status word kubectl shows (Running, CrashLoopBackOff, Ready...), for the status filter. */
  status?: string;
  /** metadata.creationTimestamp as epoch milliseconds (0 when absent). */
  createdAt: number;
  /** Raw values of the kind's `kubectl get` columns, in the order shared/kinds defines them. */
  cells: CellValue[];
}

/** client-go's MetaNamespaceKeyFunc over a namespace and name. */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}
