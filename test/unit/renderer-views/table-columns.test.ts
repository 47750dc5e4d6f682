import { describe, expect, it } from 'vitest';
import { kindColumns } from '../../../renderer/views/table-columns';
import { printerFor } from '../../../shared/kinds/columns';

describe('kindColumns', () => {
  it('shows kubectl get -A -o wide pod columns people filter by, NAMESPACE first, then k9s metrics', () => {
    const columns = kindColumns(printerFor({ group: '', resource: 'pods' }).columns, true, 'Pod');
    expect(columns.map((column) => column.title)).toEqual([
      'Namespace',
      'Name',
      'Ready',
      'Status',
      'Restarts',
      'Age',
      'IP',
      'Node',
      'CPU',
      '%CPU/R',
      '%CPU/L',
      'MEM',
      '%MEM/R',
      '%MEM/L',
    ]);
    expect(columns.find((column) => column.title === 'Restarts')?.lastRestartCell).toBeGreaterThan(0);
  });

  it("gives nodes kubectl top node's usage and percentages of allocatable", () => {
    const columns = kindColumns(printerFor({ group: '', resource: 'nodes' }).columns, false, 'Node');
    expect(columns.slice(-4).map((column) => column.title)).toEqual(['CPU', '%CPU', 'MEM', '%MEM']);
  });

  it('falls back to the row name and age when no column is known', () => {
    expect(kindColumns(undefined, false, 'Widget').map((column) => column.id)).toEqual(['name', 'age']);
  });
});
