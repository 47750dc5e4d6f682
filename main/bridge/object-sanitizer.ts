// What leaves main when the renderer asks for a full object: never managedFields (noise, and half the
// bytes), and for Secrets never the values (one value at a time crosses by revealSecretValue, when the
// user presses its Reveal control). A Secret's last-applied-configuration annotation holds its data
// too, so it is masked with the values.
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';

/** Shown in place of each masked Secret value. */
export const maskedValue = '<masked: choose Reveal to show>';

const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

export function isSecretResource(gvr: GroupVersionResource): boolean {
  return gvr.group === '' && gvr.resource === 'secrets';
}

function maskValues(values: unknown): unknown {
  if (typeof values !== 'object' || values === null) return values;
  return Object.fromEntries(Object.keys(values).map((key) => [key, maskedValue]));
}

/** A deep copy of `object` that is safe to hand to the renderer. The cache's object is never touched. */
export function sanitizeObject(object: KubeObject, gvr: GroupVersionResource): KubeObject {
  const copy = structuredClone(object);
  delete copy.metadata.managedFields;
  if (isSecretResource(gvr)) {
    if ('data' in copy) copy.data = maskValues(copy.data);
    if ('stringData' in copy) copy.stringData = maskValues(copy.stringData);
    const annotations = copy.metadata.annotations;
    if (annotations && lastAppliedAnnotation in annotations) annotations[lastAppliedAnnotation] = maskedValue;
  }
  return copy;
}
