import { describe, expect, it } from 'vitest';
import type { ColumnsType } from 'antd/es/table';
import { cardSpec, cellOf, plainTitle, tabletColumns, tableColumns } from './card-spec';
import { activeFilterCount, boolFilter, dateRangeFilter, numberFilter } from './codecs';

interface Row {
  id: number;
  serial: string;
  name: string;
  model: string;
  owner: { name: string };
  status: string;
}
const row: Row = { id: 1, serial: 'SN-1', name: 'Front desk', model: 'BE-200', owner: { name: 'Clinic' }, status: 'active' };

describe('a phone card from the columns', () => {
  const columns: ColumnsType<Row> = [
    { key: 'serial', dataIndex: 'serial', title: 'Serial', fixed: 'left' },
    { key: 'name', dataIndex: 'name', title: 'Name' },
    { key: 'model', dataIndex: 'model', title: 'Model' },
    { key: 'owner', dataIndex: ['owner', 'name'], title: 'Owner' },
    { key: 'extra', title: 'Extra', render: () => 'x' },
    { key: 'status', dataIndex: 'status', title: 'Status', render: (v: string) => `[${v}]` },
    { key: 'actions', title: 'Actions', fixed: 'right', render: () => 'menu' },
  ];
  it('unmarked: the first column is the title, `status` and `actions` by key, the next three the fields', () => {
    const spec = cardSpec(columns);
    expect(spec.title?.key).toBe('serial');
    expect(spec.status?.key).toBe('status');
    expect(spec.actions?.key).toBe('actions');
    expect(spec.fields.map((f) => f.key)).toEqual(['name', 'model', 'owner']);
    expect(cellOf(spec.fields[2]!.column, row, 0)).toBe('Clinic');
    expect(cellOf(spec.status!.column, row, 0)).toBe('[active]');
    expect(plainTitle(spec, row)).toBe('SN-1');
  });
  it('marked: only the marked fields, in their order; `false` leaves a column off', () => {
    const marked: ColumnsType<Row> = [
      { key: 'serial', dataIndex: 'serial', title: 'Serial', mobile: false },
      { key: 'name', dataIndex: 'name', title: 'Name', mobile: 'title' },
      { key: 'model', dataIndex: 'model', title: 'Model' },
      { key: 'owner', dataIndex: ['owner', 'name'], title: 'Owner', mobile: 'field' },
      { key: 'kind', dataIndex: 'status', title: 'Kind', mobile: 'status' },
      { key: 'status', dataIndex: 'status', title: 'Status', mobile: 'field' },
      { key: 'ops', title: 'Ops', render: () => 'menu', mobile: 'actions' },
    ];
    const spec = cardSpec(marked);
    expect([spec.title?.key, spec.status?.key, spec.actions?.key]).toEqual(['name', 'kind', 'ops']);
    expect(spec.fields.map((f) => f.key)).toEqual(['owner', 'status']);
    expect(tableColumns(marked).some((c) => 'mobile' in c)).toBe(false);
  });
  it('between 576 and 992 px only the first column is pinned', () => {
    const pinned = tabletColumns(columns, true).map((c) => c.fixed ?? null);
    expect(pinned).toEqual(['left', null, null, null, null, null, null]);
    expect(tabletColumns(columns, false)).toBe(columns);
  });
});

describe('the filter button counts fields, not URL names', () => {
  const codecs = [dateRangeFilter('expires', 'expires_from', 'expires_to'), numberFilter('institution_id'), boolFilter('expiring')];
  const names = ['keyword', 'status', 'institution_id', 'expires_from', 'expires_to', 'expiring'];
  it.each([
    [{}, 0],
    [{ keyword: 'BE' }, 1],
    [{ expires_from: '2026-01-01', expires_to: '2026-02-01' }, 1],
    [{ expires_to: '2026-02-01', status: 'active', institution_id: '3', expiring: '1' }, 4],
  ])('%o: %i', (filters, count) => {
    expect(activeFilterCount({ filters, names }, undefined, codecs)).toBe(count);
  });
});
