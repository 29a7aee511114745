import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_ALIVE, useTabs } from './tabs';

const loc = (pathname: string, search = '') => ({ pathname, search, hash: '', state: null, key: pathname + search });
const s = () => useTabs.getState();

describe('tabs', () => {
  beforeEach(() => s().reset());

  it('one tab per pathname; the last search is remembered', () => {
    s().visit({ key: '/a', name: 'A', location: loc('/a') });
    s().visit({ key: '/a', name: 'A', location: loc('/a', '?page=2') });
    s().visit({ key: '/d/5', name: 'D', location: loc('/d/5') });
    s().visit({ key: '/d/6', name: 'D', location: loc('/d/6') });
    expect(s().tabs.map((t) => t.key)).toEqual(['/a', '/d/5', '/d/6']);
    expect(s().tabs[0]!.location.search).toBe('?page=2');
  });

  it('affix tabs come first and cannot be closed', () => {
    s().visit({ key: '/a', name: 'A', location: loc('/a') });
    s().ensureAffix([{ key: '/home', name: 'Home' }]);
    expect(s().tabs.map((t) => t.key)).toEqual(['/home', '/a']);
    s().close('/home');
    s().closeAll();
    expect(s().tabs.map((t) => t.key)).toEqual(['/home']);
  });

  it('close others keeps affix and the chosen tab; closing drops the kept page', () => {
    s().ensureAffix([{ key: '/home', name: 'Home' }]);
    for (const k of ['/a', '/b', '/c']) s().visit({ key: k, name: k, location: loc(k) });
    s().closeOthers('/b');
    expect(s().tabs.map((t) => t.key)).toEqual(['/home', '/b']);
    expect(s().alive).toEqual(['/b']);
  });

  it('keeps at most MAX_ALIVE pages mounted, least recently used out first', () => {
    for (let i = 0; i < MAX_ALIVE + 2; i++) s().visit({ key: `/p${i}`, name: 'P', location: loc(`/p${i}`) });
    expect(s().alive).toHaveLength(MAX_ALIVE);
    expect(s().alive).not.toContain('/p0');
    expect(s().tabs).toHaveLength(MAX_ALIVE + 2);
  });

  it('refresh bumps the page key', () => {
    s().visit({ key: '/a', name: 'A', location: loc('/a') });
    s().refresh('/a');
    expect(s().tabs[0]!.nonce).toBe(1);
  });
});

describe('tab titles given by pages', () => {
  beforeEach(() => s().reset());

  it("keeps a page's title while its tab is open, and forgets it when the tab closes", () => {
    s().setTitle('/x/action/5', 'LU9 Taiyuan · Treatment actions');
    s().visit({ key: '/x/action/5', name: 'X', location: loc('/x/action/5') });
    s().visit({ key: '/y', name: 'Y', location: loc('/y') });
    expect(s().titles['/x/action/5']).toBe('LU9 Taiyuan · Treatment actions');
    s().close('/y');
    expect(s().titles['/x/action/5']).toBe('LU9 Taiyuan · Treatment actions');
    s().close('/x/action/5');
    expect(s().titles).toEqual({});
  });

  it('close others / close all / reset drop the titles of the closed tabs', () => {
    s().visit({ key: '/a', name: 'A', location: loc('/a') });
    s().visit({ key: '/b', name: 'B', location: loc('/b') });
    s().setTitle('/a', 'A!');
    s().setTitle('/b', 'B!');
    s().closeOthers('/b');
    expect(s().titles).toEqual({ '/b': 'B!' });
    s().closeAll();
    expect(s().titles).toEqual({});
    s().setTitle('/c', 'C!');
    s().reset();
    expect(s().titles).toEqual({});
  });
});
