import { afterEach, describe, expect, it, vi } from 'vitest';
import { prefetchCall, takePrefetched } from './prefetch';
import { useSession } from './session';
import { runSessionReset } from './session-reset';

/** The network: each call answers a list naming the URL it was sent to. */
function network() {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify({ code: 200, datas: { list: [url], total: 1 } }), { headers: { 'content-type': 'application/json' } });
    }),
  );
  return urls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  useSession.setState({ token: null });
  runSessionReset();
});

describe('calls started ahead of their page', () => {
  it('nothing without a session key', () => {
    const urls = network();
    useSession.setState({ token: null });
    prefetchCall('equipment.list', { page: 1, limit: 20 });
    expect(urls).toHaveLength(0);
    expect(takePrefetched('equipment.list', { page: 1, limit: 20 })).toBeUndefined();
  });

  it('sent once with the key; the page takes it once, whatever the order of its input; another input is not it', async () => {
    const urls = network();
    useSession.setState({ token: 'k1', isAdmin: true });
    prefetchCall('equipment.list', { page: 2, limit: 20, status: 'active' });
    expect(urls).toHaveLength(1);
    expect(urls[0]).toMatch(/\/equipment\/list\?.*page=2/);
    expect(takePrefetched('equipment.list', { page: 1, limit: 20, status: 'active' })).toBeUndefined();
    const taken = takePrefetched('equipment.list', { status: 'active', limit: 20, page: 2 });
    expect(await taken).toEqual({ list: [urls[0]], total: 1 });
    expect(takePrefetched('equipment.list', { page: 2, limit: 20, status: 'active' })).toBeUndefined();
  });

  it('dropped when the identity changes, and when not taken within 30 s', () => {
    network();
    useSession.setState({ token: 'k1', isAdmin: true });
    prefetchCall('equipment.list', { page: 1, limit: 20 });
    runSessionReset();
    expect(takePrefetched('equipment.list', { page: 1, limit: 20 })).toBeUndefined();

    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    prefetchCall('equipment.list', { page: 1, limit: 20 });
    clock.mockReturnValue(now + 30_001);
    expect(takePrefetched('equipment.list', { page: 1, limit: 20 })).toBeUndefined();
    clock.mockRestore();
  });
});
