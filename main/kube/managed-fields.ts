// controller-runtime's TransformStripManagedFields: managedFields are about half of a typical object's
// bytes and never shown, so informers drop them as objects enter the cache.
import type { KubeObject } from '../../shared/kube/object';

/**
 * Drops metadata.managedFields in place. metadata is rebuilt rather than `delete`d from: a delete turns
 * it into a dictionary-mode object, larger and slower to read for every later key function and projection.
 */
export function stripManagedFields(object: unknown): unknown {
  const target = object as KubeObject | undefined;
  const metadata = target?.metadata;
  if (metadata && 'managedFields' in metadata) {
    const { managedFields: _managedFields, ...rest } = metadata;
    target.metadata = rest;
  }
  return object;
}
