import { describe, expect, it } from 'vitest';
import { listStateOf } from './useListParams';

const opts = { filters: ['keyword', 'status'] as const };

describe('listStateOf: the call a list page makes for an address', () => {
  it('page and limit as numbers, set filters as text, the order only with a sort', () => {
    expect(listStateOf(new URLSearchParams(''), opts).query).toEqual({ page: 1, limit: 20 });
    expect(listStateOf(new URLSearchParams('page=3&limit=50&status=active&keyword=&other=x&sort=name&order=ascend'), opts).query).toEqual({
      page: 3,
      limit: 50,
      status: 'active',
      sort: 'name',
      order: 'ascend',
    });
    expect(listStateOf(new URLSearchParams('sort=name'), opts).query).toEqual({ page: 1, limit: 20 });
    expect(listStateOf(new URLSearchParams('order=descend'), { ...opts, defaultSort: 'created_at' }).query).toEqual({ page: 1, limit: 20, sort: 'created_at', order: 'descend' });
  });

  it('bad numbers fall back within bounds', () => {
    const s = listStateOf(new URLSearchParams('page=-4&limit=9999'), { ...opts, defaultLimit: 10 });
    expect([s.page, s.limit, s.hasFilters]).toEqual([1, 200, false]);
    expect(listStateOf(new URLSearchParams('page=x&limit=0'), { ...opts, defaultLimit: 10 }).query).toEqual({ page: 1, limit: 10 });
  });
});
