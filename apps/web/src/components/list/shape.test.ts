import { describe, expect, it } from 'vitest';
import type { ColumnsType } from 'antd/es/table';
import { columnRows, shapeColumns } from './shape';

type Row = { id: number };
const COLUMNS: ColumnsType<Row> = [
  { key: 'serial', title: 'Serial', fixed: 'left' },
  { key: 'name', title: 'Name' },
  { key: 'model', title: 'Model' },
  { key: 'status', title: 'Status' },
  { key: 'version', title: 'Version (a column the list does not know)' },
  { key: 'actions', title: 'Actions', fixed: 'right' },
];
const keys = (cols: ColumnsType<Row>) => cols.map((c) => String(c.key));

describe('column settings applied to a page’s columns', () => {
  it('without settings, the page’s own columns as they are', () => {
    expect(shapeColumns('equipment.list', COLUMNS, null)).toBe(COLUMNS);
    expect(shapeColumns(undefined, COLUMNS, [{ key: 'name', visible: false }])).toBe(COLUMNS);
  });

  it('ordered and hidden as set; known columns the setting does not name follow, shown; unknown ones stay at the end', () => {
    const shaped = shapeColumns('equipment.list', COLUMNS, [
      { key: 'status', visible: true },
      { key: 'serial', visible: true },
      { key: 'model', visible: false },
      { key: 'gone', visible: true },
    ]);
    expect(keys(shaped)).toEqual(['status', 'serial', 'name', 'version', 'actions']);
    // A column pinned left stays pinned only while it is first; the right-pinned actions keep theirs.
    expect(shaped.find((c) => c.key === 'serial')?.fixed).toBeUndefined();
    expect(shaped.find((c) => c.key === 'actions')?.fixed).toBe('right');
  });

  it('the settings panel lists the configurable columns with the page’s titles, in the saved order', () => {
    const rows = columnRows('equipment.list', COLUMNS, [{ key: 'model', visible: false }]);
    expect(rows).toEqual([
      { key: 'model', title: 'Model', visible: false },
      { key: 'serial', title: 'Serial', visible: true },
      { key: 'name', title: 'Name', visible: true },
      { key: 'status', title: 'Status', visible: true },
    ]);
  });
});
