import { describe, expect, it } from 'vitest';
import { accessibleRoutes, buildMenu, canOpenRouteNamed, canUseButton, type MenuEntry, type Viewer } from './access';
import type { ButtonKey } from './routes';
import { flattenRoutes } from './routes';

const admin: Viewer = { isAdmin: true, grade: 0, granted: null };
const inst = (grade: 1 | 2 | 3): Viewer => ({ isAdmin: false, grade });
const shape = (menu: MenuEntry[]): unknown => menu.map((m) => (m.children ? { [m.name]: shape(m.children) } : `${m.name}@${m.path}`));

describe('menu visibility (spec §2, domain.md decisions)', () => {
  it('a super-admin sees every grade-0 module, equipment stats as one entry, and no activation codes', () => {
    expect(shape(buildMenu(admin))).toEqual([
      'EquipmentStats@/stats/equipment',
      'DeviceList@/dashboard/index',
      { Institutional: ['InstitutionList@/institutional/index', 'InspectionApply@/institutional/inspection-apply', 'InstitutionEndRecord@/institutional/institution-end-record'] },
      'PackageManage@/package-manage/index',
      { FinanceRecord: ['FinanceRecordList@/finance-record/index', 'PayoutManage@/finance-record/payout-manage', 'DeviceEndRecord@/finance-record/device-end-record'] },
      'DistributionRecord@/distribution-record/index',
      'DoctorManage@/searchers/management',
      'UserManage@/user/management',
      'InspectionList@/inspection/management',
      { Disease: ['DiseaseManage@/disease/management', 'SystemManage@/disease/management2'] },
      'AcupointManage@/acupoint/management',
      'SchematicManage@/schematic/management',
      { Jurisdiction: ['RoleManage@/jurisdiction/role', 'MenuManage@/jurisdiction/menu', 'AdminUserManage@/jurisdiction/admin_user'] },
      { System: ['ParamsSetting@/system/params-setting', 'AuditLog@/system/audit-log'] },
    ]);
  });

  it.each([1, 2] as const)('grade %i sees stats opening finance stats, devices, institutions, finance, inspections', (grade) => {
    expect(shape(buildMenu(inst(grade)))).toEqual([
      'Stats@/stats/finance',
      'DeviceList@/dashboard/index',
      { Institutional: ['InstitutionList@/institutional/index', 'InspectionApply@/institutional/inspection-apply', 'InstitutionEndRecord@/institutional/institution-end-record'] },
      { FinanceRecord: ['FinanceRecordList@/finance-record/index', 'PayoutManage@/finance-record/payout-manage', 'DeviceEndRecord@/finance-record/device-end-record'] },
      'InspectionList@/inspection/management',
    ]);
  });

  it('grade 3 sees devices, institutions and inspections only', () => {
    expect(shape(buildMenu(inst(3)))).toEqual([
      'DeviceList@/dashboard/index',
      { Institutional: ['InstitutionList@/institutional/index', 'InspectionApply@/institutional/inspection-apply', 'InstitutionEndRecord@/institutional/institution-end-record'] },
      'InspectionList@/inspection/management',
    ]);
  });

  it('an admin sees only what the role grants, and a parent without permitted children disappears', () => {
    const auditor: Viewer = { isAdmin: true, grade: 0, granted: new Set(['Dashboard', 'DeviceList', 'Inspection', 'InspectionList', 'InspectionReport']) };
    expect(shape(buildMenu(auditor))).toEqual(['DeviceList@/dashboard/index', 'InspectionList@/inspection/management']);
    expect(canOpenRouteNamed('InspectionReport', auditor)).toBe(true);
    expect(canOpenRouteNamed('InspectionResult', auditor)).toBe(false);
  });

  it('leaves out screens not built and nodes hidden in the menu editor, recursively', () => {
    const built = new Set(['DeviceList', 'AcupointManage', 'RoleManage', 'MenuManage']);
    expect(shape(buildMenu(admin, { isBuilt: (n) => built.has(n), menuHidden: new Set(['MenuManage']) }))).toEqual([
      'DeviceList@/dashboard/index',
      'AcupointManage@/acupoint/management',
      'RoleManage@/jurisdiction/role',
    ]);
    expect(accessibleRoutes(inst(3), { isBuilt: (n) => built.has(n) }).map((r) => r.name)).toEqual(['Dashboard']);
  });

  it('activation codes: in no menu, but grade 0 reaches the page by its address', () => {
    const names = (m: MenuEntry[]): string[] => m.flatMap((e) => [e.name, ...names(e.children ?? [])]);
    for (const v of [admin, inst(1), inst(2), inst(3)]) expect(names(buildMenu(v))).not.toContain('ActivationCode');
    expect(canOpenRouteNamed('ActivationCode', admin)).toBe(true);
    expect(canOpenRouteNamed('ActivationCode', inst(1))).toBe(false);
  });
});

describe('buttons', () => {
  it('admins need the button granted (and its page); institutions never get grade-0 buttons', () => {
    const role: Viewer = { isAdmin: true, grade: 0, granted: new Set(['AcupointManage', 'acupoint:add']) };
    expect(canUseButton('acupoint:add', role)).toBe(true);
    expect(canUseButton('acupoint:delete', role)).toBe(false);
    expect(canUseButton('acupoint:add', { isAdmin: true, grade: 0, granted: new Set(['acupoint:add']) })).toBe(false);
    expect(canUseButton('acupoint:add', inst(1))).toBe(false);
    expect(canUseButton('no-such:button' as ButtonKey, admin)).toBe(false);
  });

  it('every button key and route name is unique', () => {
    const signs = flattenRoutes().flatMap((r) => [r.name, ...(r.buttons ?? []).map((b) => b.key)]);
    expect(new Set(signs).size).toBe(signs.length);
  });

  it('every route title exists in the four languages', () => {
    for (const r of flattenRoutes()) for (const l of ['zh', 'en', 'es', 'ja'] as const) expect(r.title[l], `${r.name}.${l}`).toBeTruthy();
  });
});
