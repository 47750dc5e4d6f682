import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  cellFits,
  fittedCell,
  leastContentWidth,
  textWidthBound,
} from '../../../renderer/components/cell-fit';
import {
  kindCellText,
  kindColumns,
  renderKindCell,
  type KindColumn,
} from '../../../renderer/views/table-columns';
import { printerFor } from '../../../shared/kinds/columns';
import type { Row } from '../../../shared/protocol';

const podColumns = kindColumns(printerFor({ group: '', resource: 'pods' }).columns, true, 'Pod');
const column = (title: string): KindColumn => podColumns.find((candidate) => candidate.title === title)!;

function pod(name: string, status: string, restarts: number): Row {
  const cells = printerFor({ group: '', resource: 'pods' }).columns.map(() => null as unknown);
  const row = {
    key: `team-1/${name}`,
    uid: 'uid-1',
    name,
    namespace: 'team-1',
    resourceVersion: '1',
    labels: {},
    owners: [],
    status,
    createdAt: 1_700_000_000_000,
    cells: cells as Row['cells'],
  } as Row;
  const statusAt = podColumns.find((candidate) => candidate.title === 'Status')!.sortBy as number;
  const restartsAt = podColumns.find((candidate) => candidate.title === 'Restarts')!.sortBy as number;
  const written = [...row.cells];
  written[statusAt] = status;
  written[restartsAt] = restarts;
  return { ...row, cells: written };
}

describe('cell fit', () => {
  it('reads the least content width from fixed and minmax() tracks, less the padding', () => {
    expect(leastContentWidth('72px')).toBe(52);
    expect(leastContentWidth('minmax(220px, 3fr)')).toBe(200);
    expect(leastContentWidth('1fr')).toBe(0);
  });

  it('bounds wide glyphs above narrow ones, and adds a fixed part', () => {
    expect(textWidthBound('mmmm')).toBeGreaterThan(textWidthBound('iiii'));
    expect(textWidthBound('MW')).toBeGreaterThan(textWidthBound('ab'));
    expect(textWidthBound('Running', 13)).toBe(textWidthBound('Running') + 13);
    // A whole em (and the weight allowance) for anything outside ASCII letters, digits and punctuation.
    expect(textWidthBound('日本')).toBeCloseTo(2 * 13 * 1.1);
  });

  it('leaves a cell unclipped only when its text surely fits', () => {
    expect(cellFits({ text: 'api-0-5f7c9d-bcdfg' }, 200)).toBe(true);
    expect(cellFits({ text: 'a-very-long-deployment-name-7d9f8c6b5-x2x4z' }, 200)).toBe(false);
    expect(cellFits(undefined, 1_000)).toBe(false);
    expect(fittedCell('table-cell', '12m', 52)).toBe('table-cell fits');
    expect(fittedCell('table-cell', '123456789Mi', 60)).toBe('table-cell');
  });

  it("gives a pod's cells their shown text, and ticking cells none (they decide as they render)", () => {
    const row = pod('api-0-5f7c9d-bcdfg', 'Running', 0);
    expect(kindCellText(row, column('Name'))).toEqual({ text: 'api-0-5f7c9d-bcdfg' });
    expect(kindCellText(row, column('Namespace'))).toEqual({ text: 'team-1' });
    expect(kindCellText(row, column('Status'))).toEqual({ text: 'Running', extra: 13 });
    expect(kindCellText(row, column('Age'))).toBeUndefined();
    expect(kindCellText(row, column('Restarts'))).toBeUndefined();
    expect(kindCellText(row, column('CPU'))).toBeUndefined();
    expect(kindCellText(row, column('IP'))).toEqual({ text: '<none>' });
  });

  it('renders a cell of one value as the cell element holding its text, no element inside it', () => {
    // Each element a row adds is styled, laid out and painted as it scrolls into view (grid-cell.tsx).
    // No title: the table gives the hovered cell its text as one (use-hover-title.ts), since a title
    // written at each render restyles its cell.
    const row = pod('api-0-5f7c9d-bcdfg', 'Running', 0);
    const cell = (title: string) => renderToStaticMarkup(renderKindCell(row, column(title), 'table-cell'));
    expect(cell('Namespace')).toBe('<div role="gridcell" class="table-cell cell-muted">team-1</div>');
    expect(cell('Name')).toBe('<div role="gridcell" class="table-cell cell-name">api-0-5f7c9d-bcdfg</div>');
    expect(cell('IP')).toBe(
      '<div role="gridcell" class="table-cell cell-mono cell-faint">&lt;none&gt;</div>',
    );
    // A metric with no sample yet (no metrics context): an empty cell, unclipped.
    expect(cell('CPU')).toBe('<div role="gridcell" class="table-cell fits"></div>');
    // The status keeps its span: the dot is the span's ::before.
    expect(cell('Status')).toBe(
      '<div role="gridcell" class="table-cell"><span class="status status-ok">Running</span></div>',
    );
  });
});
