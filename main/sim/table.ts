// metav1.Table for `kubectl get`: the column definitions and cells come from shared/kinds' printers,
// so the simulator prints what kubectl prints for a real cluster and what Kubetide's tables show.
// Custom kinds use their CRD's additionalPrinterColumns (NAME AGE when there are none).
import type { TableColumnDefinition } from '../../shared/kinds/columns';
import {
  printerFor,
  printerForCustomResourceDefinition,
  tableColumnsAndRows,
} from '../../shared/kinds/columns';
import type { KindPrinter } from '../../shared/kinds/columns';
import type { KubeObject } from '../../shared/kube/object';
import type { ObjectStore } from './object-store';
import type { ResourceType } from './resource-type';

export type { TableColumnDefinition } from '../../shared/kinds/columns';

export interface TableConverter {
  columnDefinitions(type: ResourceType): TableColumnDefinition[];
  cells(type: ResourceType, object: KubeObject, now: number): (string | number)[];
}

/**
 * Printers are compiled once per ResourceType; a CRD update re-creates its types, so a changed
 * printer column is picked up without invalidation.
 */
export function createTableConverter(store: ObjectStore): TableConverter {
  const printers = new WeakMap<ResourceType, KindPrinter>();
  const printerOf = (type: ResourceType): KindPrinter => {
    let printer = printers.get(type);
    if (!printer) {
      const definition = type.definitionName
        ? store.get('customresourcedefinitions.apiextensions.k8s.io', type.definitionName)?.object
        : undefined;
      printer = definition ? printerForCustomResourceDefinition(definition, type.version) : printerFor(type);
      printers.set(type, printer);
    }
    return printer;
  };
  return {
    columnDefinitions: (type) => tableColumnsAndRows(printerOf(type), [], 0).columnDefinitions,
    cells: (type, object, now) => tableColumnsAndRows(printerOf(type), [object], now).rows[0]?.cells ?? [],
  };
}
