import { describe, expect, it, vi } from 'vitest';
import { page, prefetchPageData, preloadPageAt, preloadSignedIn, registerPages, registerShell } from './pages';
import { useSession } from './session';

const Empty = () => null;

describe('page preloading', () => {
  const loadDevices = vi.fn(async () => ({ default: Empty }));
  const loadRoles = vi.fn(async () => ({ default: Empty }));
  const prefetchDevices = vi.fn((_search: URLSearchParams) => undefined);
  registerPages('test', { DeviceList: page(loadDevices, { prefetch: prefetchDevices }), RoleManage: page(loadRoles) });

  it('loads the code of the page at an address, and nothing for an unknown or parent address', () => {
    preloadPageAt('/jurisdiction/role');
    expect(loadRoles).toHaveBeenCalledTimes(1);
    expect(loadDevices).not.toHaveBeenCalled();
    preloadPageAt('/nowhere');
    preloadPageAt('/jurisdiction');
    expect(loadRoles).toHaveBeenCalledTimes(1);
    expect(loadDevices).not.toHaveBeenCalled();
  });

  it('a signed-in user: the shell and the landing page (the device list for `/`, query ignored)', () => {
    const shell = vi.fn(async () => ({}));
    registerShell(shell);
    preloadSignedIn('/?x=1');
    expect(shell).toHaveBeenCalledTimes(1);
    expect(loadDevices).toHaveBeenCalledTimes(1);
  });

  it("a page's first call: with the session's key only, from the address's query; `/` is the home page with none", () => {
    useSession.setState({ token: null });
    preloadSignedIn('/dashboard/index?page=2');
    prefetchPageData('/dashboard/index?page=2');
    expect(prefetchDevices).not.toHaveBeenCalled();

    useSession.setState({ token: 'k' });
    prefetchPageData('/dashboard/index?page=2&status=active#top');
    expect(prefetchDevices).toHaveBeenCalledTimes(1);
    expect(Object.fromEntries(prefetchDevices.mock.calls[0]![0])).toEqual({ page: '2', status: 'active' });
    prefetchPageData('/?redirect=/x');
    expect(prefetchDevices).toHaveBeenCalledTimes(2);
    expect([...prefetchDevices.mock.calls[1]![0]]).toEqual([]);
    // A page without a prefetch, or no page: nothing.
    prefetchPageData('/jurisdiction/role?page=3');
    prefetchPageData('/nowhere');
    expect(prefetchDevices).toHaveBeenCalledTimes(2);
    // A reload of a signed-in page: code and call together.
    preloadSignedIn('/dashboard/index?sort=name&order=ascend');
    expect(prefetchDevices).toHaveBeenCalledTimes(3);
    expect(Object.fromEntries(prefetchDevices.mock.calls[2]![0])).toEqual({ sort: 'name', order: 'ascend' });
    useSession.setState({ token: null });
  });
});
