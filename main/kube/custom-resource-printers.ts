// The kubectl columns of custom resources: each CRD version's additionalPrinterColumns, as the
// apiextensions-apiserver's table convertor uses them to answer `kubectl get`. Fed by
// CustomResourceDefinitionWatch; a CRD is kept cut down to what a printer reads (group, plural,
// versions and their columns), because its OpenAPI schemas run to hundreds of KB each.
import type { KindPrinter } from '../../shared/kinds/columns';
import { printerForCustomResourceDefinition } from '../../shared/kinds/columns';
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';

interface Entry {
  definition: KubeObject;
  /** Compiled printers by version, built on first use: JSONPaths are parsed once per CRD change. */
  printers: Map<string, KindPrinter>;
}

/** A CRD with nothing but what printerForCustomResourceDefinition reads. */
export function trimDefinition(definition: KubeObject): KubeObject {
  const spec = (definition.spec ?? {}) as Record<string, unknown>;
  const versions = Array.isArray(spec.versions) ? (spec.versions as Record<string, unknown>[]) : [];
  return {
    apiVersion: definition.apiVersion,
    kind: definition.kind,
    metadata: { name: definition.metadata.name },
    spec: {
      group: spec.group,
      names: { plural: (spec.names as { plural?: unknown } | undefined)?.plural },
      ...(spec.additionalPrinterColumns ? { additionalPrinterColumns: spec.additionalPrinterColumns } : {}),
      versions: versions.map(({ name, served, storage, additionalPrinterColumns }) => ({
        name,
        served,
        storage,
        ...(additionalPrinterColumns ? { additionalPrinterColumns } : {}),
      })),
    },
  };
}

export class CustomResourcePrinters {
  /**
   * Bumped whenever some kind's printer changes (a CRD added or deleted, or its columns edited); a
   * CRD update that leaves the columns alone (status, schema, labels) keeps its compiled printers.
   */
  revision = 0;
  /** By CRD name, which the API server requires to be `<plural>.<group>`. */
  private readonly entries = new Map<string, Entry>();

  /** The state after a LIST: every CRD the server has, no others. */
  replace(definitions: readonly KubeObject[]): void {
    const listed = new Set<string>();
    for (const definition of definitions) {
      this.set(definition);
      if (definition.metadata.name) listed.add(definition.metadata.name);
    }
    for (const name of [...this.entries.keys()]) if (!listed.has(name)) this.delete({ metadata: { name } });
  }

  /** An added or modified CRD; its printers are rebuilt on next use if what they read changed. */
  set(definition: KubeObject): void {
    const name = definition.metadata.name;
    if (!name) return;
    const trimmed = trimDefinition(definition);
    const existing = this.entries.get(name);
    if (existing && sameColumns(existing.definition, trimmed)) return;
    this.entries.set(name, { definition: trimmed, printers: new Map() });
    this.revision++;
  }

  delete(definition: KubeObject): void {
    if (definition.metadata.name && this.entries.delete(definition.metadata.name)) this.revision++;
  }

  /** The printer of a custom resource at the version it is read at; undefined for other kinds. */
  printerFor(gvr: GroupVersionResource): KindPrinter | undefined {
    if (gvr.group === '') return undefined;
    const entry = this.entries.get(`${gvr.resource}.${gvr.group}`);
    if (!entry) return undefined;
    let printer = entry.printers.get(gvr.version);
    if (!printer) {
      printer = printerForCustomResourceDefinition(entry.definition, gvr.version);
      entry.printers.set(gvr.version, printer);
    }
    return printer;
  }
}

/** Trimmed CRDs print alike when their specs (all a printer reads) are equal. */
function sameColumns(left: KubeObject, right: KubeObject): boolean {
  return JSON.stringify(left.spec) === JSON.stringify(right.spec);
}
