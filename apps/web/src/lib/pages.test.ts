import { describe, expect, it, vi } from 'vitest';
import { page, preloadPageAt, preloadSignedIn, registerPages, registerShell } from './pages';

const Empty = () => null;

describe('page preloading', () => {
  const loadDevices = vi.fn(async () => ({ default: Empty }));
  const loadRoles = vi.fn(async () => ({ default: Empty }));
  registerPages('test', { DeviceList: page(loadDevices), RoleManage: page(loadRoles) });

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
});
