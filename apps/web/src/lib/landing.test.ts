import { describe, expect, it } from 'vitest';
import { accessibleRoutes, buildMenu, type MenuEntry, type Viewer } from '@app/contract/access';
import { flattenRoutes } from '@app/contract/routes';
import { canOpenPath, landingPath, safeRedirect } from './landing';

const entry = (path: string, children?: MenuEntry[]): MenuEntry => ({ name: path, path, title: { zh: '', en: '', es: '', ja: '' }, children });

describe('landingPath', () => {
  const home = { path: '/dashboard/index' };
  const packages = { path: '/package-manage/index' };
  const detail = { path: '/acupoint/action/:id' };

  it('goes to ?redirect= when given', () => {
    expect(landingPath({ pages: [home], menu: [] }, { redirect: '/package-manage/index?page=2' })).toBe('/package-manage/index?page=2');
  });
  it('goes to the home page when the user may open it', () => {
    expect(landingPath({ pages: [packages, home], menu: [entry('/package-manage/index'), entry('/dashboard/index')] })).toBe('/dashboard/index');
  });
  it('else to the first page of the menu, depth first', () => {
    const menu = [entry('/stats', [entry('/stats/finance'), entry('/stats/devices')]), entry('/package-manage/index')];
    expect(landingPath({ pages: [packages], menu })).toBe('/stats/finance');
  });
  it('else to /401', () => {
    expect(landingPath({ pages: [], menu: [] })).toBe('/401');
  });
  it('prefers a page to go back to only when it may be opened', () => {
    expect(landingPath({ pages: [home, detail], menu: [] }, { preferred: '/acupoint/action/5' })).toBe('/acupoint/action/5');
    expect(landingPath({ pages: [home], menu: [] }, { preferred: '/jurisdiction/role' })).toBe('/dashboard/index');
  });
  it('follows the contract routes and menu for a real viewer', () => {
    const viewerOf = (signs: string[]): Viewer => ({ isAdmin: true, grade: 0, roles: ['admin'], granted: new Set(signs) });
    const accessOf = (v: Viewer) => ({ pages: flattenRoutes(accessibleRoutes(v)).filter((r) => !r.children), menu: buildMenu(v) });
    // Inspections only: no device list (home), so the first menu page.
    expect(landingPath(accessOf(viewerOf(['Inspection', 'InspectionList'])))).toBe('/inspection/management');
    // With the device list, home wins whatever comes first in the menu.
    expect(landingPath(accessOf(viewerOf(['Inspection', 'InspectionList', 'Dashboard', 'DeviceList'])))).toBe('/dashboard/index');
    // Nothing granted: nothing to open.
    expect(landingPath(accessOf(viewerOf([])))).toBe('/401');
  });
});

describe('canOpenPath and safeRedirect', () => {
  it('matches route patterns and ignores the query', () => {
    expect(canOpenPath('/acupoint/action/7?x=1', [{ path: '/acupoint/action/:id' }])).toBe(true);
    expect(canOpenPath('/acupoint/action', [{ path: '/acupoint/action/:id' }])).toBe(false);
  });
  it('keeps only in-app targets', () => {
    expect(safeRedirect('/package-manage/index?page=2')).toBe('/package-manage/index?page=2');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', '/login?redirect=/x', '', null]) expect(safeRedirect(bad, '/')).toBe('/');
  });
});
