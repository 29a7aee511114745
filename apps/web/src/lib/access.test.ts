import { describe, expect, it } from 'vitest';
import type { RoleNode } from '@app/contract/api/auth';
import { buildAccess, buttonMapOf, menuHiddenOf, menuNodesOf, viewerOf } from './access';

const t = (en: string) => ({ zh: en, en, es: en, ja: en });
const node = (id: number, type: 1 | 2 | 3, sign: string, title: string, children: RoleNode[] = [], hidden: 0 | 1 = 0, sort = id): RoleNode => ({
  id,
  type,
  sign,
  title: t(title),
  sort,
  hidden,
  children,
});

// An auditor-like role: devices and inspections, one granted and one hidden button.
const roleData: RoleNode[] = [
  node(1, 1, 'Dashboard', 'Devices', [node(2, 2, 'DeviceList', 'My devices'), node(3, 2, 'DeviceEndRecordOfDevice', 'Payments', [], 1)]),
  node(10, 1, 'PackageParent', 'Packages', [node(11, 2, 'PackageManage', 'Packages', [node(12, 3, 'package:add', 'Add'), node(13, 3, 'package:delete', 'Delete', [], 1)])]),
];
const built = (name: string) => ['DeviceList', 'DeviceEndRecordOfDevice', 'PackageManage', 'InstitutionList', 'FinanceStats', 'EquipmentStats'].includes(name);

describe('role_data -> zcrouter / zcbtn (spec §6)', () => {
  it('keeps non-button nodes for the menu and type-3 nodes with hidden 0 as buttons', () => {
    const zcrouter = menuNodesOf(roleData);
    expect(JSON.stringify(zcrouter)).not.toContain('package:add');
    expect(buttonMapOf(roleData)).toEqual({ 'package:add': true });
    expect([...menuHiddenOf(zcrouter)]).toEqual(['DeviceEndRecordOfDevice']);
  });
});

describe('buildAccess', () => {
  const admin = { isAdmin: true, grade: 0, zcrouter: menuNodesOf(roleData), zcbtn: buttonMapOf(roleData), roles: ['admin'] };
  it('admins: routes from grants, titles from role_data, hidden nodes out of the menu', () => {
    const a = buildAccess(admin, 'en', built);
    expect(a.pages.map((p) => p.name).sort()).toEqual(['DeviceEndRecordOfDevice', 'DeviceList', 'PackageManage']);
    expect(a.menu.map((m) => m.name)).toEqual(['DeviceList', 'PackageManage']);
    expect(a.title('DeviceList')).toBe('My devices');
    expect(a.title('InstitutionList')).toBe('Institution list');
    expect(a.can('package:add')).toBe(true);
    expect(a.can('package:delete')).toBe(false);
    expect(a.can('doctor:add')).toBe(false);
  });
  it('admins: menu order follows role_data sort', () => {
    const reordered = menuNodesOf([
      { ...roleData[1]!, sort: 1 },
      { ...roleData[0]!, sort: 2 },
    ]);
    const a = buildAccess({ ...admin, zcrouter: reordered }, 'en', built);
    expect(a.menu.map((m) => m.name)).toEqual(['PackageManage', 'DeviceList']);
  });
  it('institutions: by grade only', () => {
    const g3 = buildAccess({ isAdmin: false, grade: 3, zcrouter: [], zcbtn: {}, roles: ['admin'] }, 'zh', built);
    expect(g3.pages.map((p) => p.name)).toEqual(['DeviceList', 'DeviceEndRecordOfDevice', 'InstitutionList']);
    expect(g3.menu.map((m) => m.name)).not.toContain('Stats');
    expect(g3.title('DeviceList')).toBe('设备列表');
    expect(g3.can('package:add')).toBe(false);
    const g1 = buildAccess({ isAdmin: false, grade: 1, zcrouter: [], zcbtn: {}, roles: ['admin'] }, 'en', built);
    expect(g1.menu.find((m) => m.name === 'Stats')?.path).toBe('/stats/finance');
  });
  it('viewer of an institution whose grade is not known yet', () => {
    expect(viewerOf({ isAdmin: false, grade: null, zcrouter: [], zcbtn: {}, roles: [] })).toEqual({ isAdmin: false, grade: 0, roles: ['admin'] });
  });
});
