// How the protobuf field tables are written, and the meta/v1 messages every kind embeds. The tables
// (here, protobuf-pod-schema.ts, protobuf-review-schema.ts, protobuf-kinds.ts) give the field
// numbers of the Kubernetes messages kubectl's typed clients send: what `kubectl create configmap|
// secret|namespace|service|deployment|job|cronjob` build, `create job --from=cronjob/...` included,
// and the reviews `auth can-i` posts. Numbers and JSON names are k8s.io/api's and apimachinery's
// generated.proto.
//
// Deliberately partial: a field missing here decodes only while it holds its zero value (Go's
// generated marshalers write every non-pointer field, set or not); a set one is refused by the
// decoder, never dropped in silence. Add a message or field here when a client needs it.

/** Scalars plus the apimachinery wrapper messages that have their own JSON form. */
export type ScalarType = 'string' | 'integer' | 'boolean' | 'bytes' | 'time' | 'intOrString' | 'quantity';

export interface FieldSchema {
  /** The JSON field name. */
  name: string;
  type: ScalarType | MessageSchema;
  repeated?: true;
  /** map<string, type>: the wire carries entry messages {1: key, 2: value}. */
  map?: true;
  /**
   * A Go pointer (`*int32`, `*bool`, ...): marshalled only when set, so a zero on the wire was meant
   * (replicas: 0). Non-pointer zeros are dropped, as `omitempty` drops them from JSON.
   */
  pointer?: true;
  /** A Go struct embedded with `json:",inline"` (a Volume's VolumeSource): its fields join the parent's. */
  inline?: true;
}

export interface MessageSchema {
  /** Qualified like `core/v1 PodSpec`, for error messages. */
  name: string;
  fields: Record<number, FieldSchema>;
}

type Options = Pick<FieldSchema, 'repeated' | 'map' | 'pointer' | 'inline'>;
export const field = (name: string, type: FieldSchema['type'], options: Options = {}): FieldSchema => ({
  name,
  type,
  ...options,
});
export const pointer = { pointer: true } as const;
export const repeated = { repeated: true } as const;
export const map = { map: true } as const;
export const inline = { inline: true } as const;
export const message = (name: string, fields: Record<number, FieldSchema>): MessageSchema => ({
  name,
  fields,
});

const ownerReference = message('meta/v1 OwnerReference', {
  5: field('apiVersion', 'string'),
  1: field('kind', 'string'),
  3: field('name', 'string'),
  4: field('uid', 'string'),
  6: field('controller', 'boolean', pointer),
  7: field('blockOwnerDeletion', 'boolean', pointer),
});

export const objectMeta = message('meta/v1 ObjectMeta', {
  1: field('name', 'string'),
  2: field('generateName', 'string'),
  3: field('namespace', 'string'),
  4: field('selfLink', 'string'),
  5: field('uid', 'string'),
  6: field('resourceVersion', 'string'),
  7: field('generation', 'integer'),
  8: field('creationTimestamp', 'time'),
  9: field('deletionTimestamp', 'time'),
  10: field('deletionGracePeriodSeconds', 'integer', pointer),
  11: field('labels', 'string', map),
  12: field('annotations', 'string', map),
  13: field('ownerReferences', ownerReference, repeated),
  14: field('finalizers', 'string', repeated),
});

/** meta/v1's LabelSelectorRequirement and FieldSelectorRequirement, laid out alike. */
export const selectorRequirement = (selector: 'Label' | 'Field') =>
  message(`meta/v1 ${selector}SelectorRequirement`, {
    1: field('key', 'string'),
    2: field('operator', 'string'),
    3: field('values', 'string', repeated),
  });

export const labelSelector = message('meta/v1 LabelSelector', {
  1: field('matchLabels', 'string', map),
  2: field('matchExpressions', selectorRequirement('Label'), repeated),
});
