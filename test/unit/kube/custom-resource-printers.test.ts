import { describe, expect, it } from 'vitest';
import { CustomResourcePrinters, trimDefinition } from '../../../main/kube/custom-resource-printers';
import { columnHeader } from '../../../shared/kinds/columns';
import type { KubeObject } from '../../../shared/kube/object';

const column = (name: string, jsonPath: string, priority = 0) => ({
  name,
  type: 'string',
  jsonPath,
  priority,
});

function definition(resourceVersion: string, v2Columns: object[]): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.dev', resourceVersion },
    spec: {
      group: 'example.dev',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', description: 'x'.repeat(10_000) } },
          additionalPrinterColumns: [column('Size', '.spec.size')],
        },
        { name: 'v2', served: true, storage: false, additionalPrinterColumns: v2Columns },
      ],
    },
  };
}

const headers = (printers: CustomResourcePrinters, version: string) =>
  printers.printerFor({ group: 'example.dev', version, resource: 'widgets' })?.columns.map(columnHeader);

describe('CustomResourcePrinters', () => {
  it('gives each served version its own additionalPrinterColumns, keeping no schema', () => {
    const printers = new CustomResourcePrinters();
    printers.replace([
      definition('1', [column('Colour', '.spec.colour'), column('Owner', '.spec.owner', 1)]),
    ]);
    expect(headers(printers, 'v1')).toEqual(['NAME', 'SIZE']);
    expect(headers(printers, 'v2')).toEqual(['NAME', 'COLOUR', 'OWNER']);
    const kept = JSON.stringify(trimDefinition(definition('1', [])));
    expect(kept).not.toContain('openAPIV3Schema');
    expect(kept).toContain('.spec.size');
  });

  it('answers only for kinds a CRD defines, and forgets deleted or relisted-away CRDs', () => {
    const printers = new CustomResourcePrinters();
    printers.set(definition('1', []));
    expect(printers.printerFor({ group: '', version: 'v1', resource: 'widgets' })).toBeUndefined();
    expect(printers.printerFor({ group: 'apps', version: 'v1', resource: 'deployments' })).toBeUndefined();
    printers.delete(definition('2', []));
    expect(headers(printers, 'v1')).toBeUndefined();
    printers.set(definition('3', []));
    printers.replace([]);
    expect(headers(printers, 'v1')).toBeUndefined();
  });

  it('rebuilds a printer when its columns change, and keeps it through other CRD updates', () => {
    const printers = new CustomResourcePrinters();
    printers.set(definition('1', [column('Colour', '.spec.colour')]));
    const gvr = { group: 'example.dev', version: 'v2', resource: 'widgets' };
    const first = printers.printerFor(gvr);
    const revision = printers.revision;
    const statusUpdate = definition('2', [column('Colour', '.spec.colour')]);
    statusUpdate.status = { conditions: [{ type: 'Established', status: 'True' }] };
    printers.set(statusUpdate);
    printers.replace([statusUpdate]);
    expect(printers.printerFor(gvr)).toBe(first);
    expect(printers.revision).toBe(revision);
    printers.set(definition('3', [column('Shape', '.spec.shape')]));
    expect(headers(printers, 'v2')).toEqual(['NAME', 'SHAPE']);
    expect(printers.revision).toBe(revision + 1);
    printers.replace([]);
    expect(printers.revision).toBe(revision + 2);
  });
});
