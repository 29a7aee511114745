import { describe, expect, it } from 'vitest';
import type { RegionTable } from '@app/contract/api/regions';
import { regionOptions, regionSearchMatch } from './RegionCascader';
import { regionFilterCodec } from './RegionFilter';
import { regionIndex, regionText } from './RegionName';

const TABLE: RegionTable = {
  source: 'test',
  tree: [
    ['330000', '浙江省', 'Zhejiang Sheng', [['330100', '杭州市', 'Hangzhou Shi', [['330106', '西湖区', 'Xihu Qu']]]]],
    ['110000', '北京市', 'Beijing Shi', [['110100', '市辖区', 'Shixiaqu', [['110105', '朝阳区', 'Chaoyang Qu']]]]],
    ['440000', '广东省', 'Guangdong Sheng', [['441900', '东莞市', 'Dongguan Shi']]],
    ['610000', '陕西省', 'Shaanxi Sheng', [['610100', '西安市', "Xi'an Shi"]]],
  ],
};

describe('region names', () => {
  const index = regionIndex(TABLE);
  it('reads Chinese top-down for zh and ja, pinyin bottom-up for en and es', () => {
    expect(regionText(index, ['330000', '330100', '330106'], 'zh')).toBe('浙江省杭州市西湖区');
    expect(regionText(index, ['330000', '330100', '330106'], 'ja')).toBe('浙江省杭州市西湖区');
    expect(regionText(index, ['330000', '330100', '330106'], 'en')).toBe('Xihu Qu, Hangzhou Shi, Zhejiang Sheng');
    expect(regionText(index, ['330000', '330100', '330106'], 'es')).toBe('Xihu Qu, Hangzhou Shi, Zhejiang Sheng');
  });

  it('leaves out the placeholders of the statistics tables, shows unknown codes as they are', () => {
    expect(regionText(index, ['110000', '110100', '110105'], 'zh')).toBe('北京市朝阳区');
    expect(regionText(index, ['110000', '110100', '110105'], 'en')).toBe('Chaoyang Qu, Beijing Shi');
    expect(regionText(index, ['440000', '441900'], 'en')).toBe('Dongguan Shi, Guangdong Sheng');
    expect(regionText(index, ['990000'], 'zh')).toBe('990000');
    expect(regionText(undefined, ['330000'], 'zh')).toBe('330000');
    expect(regionText(index, [], 'zh')).toBe('');
    expect(regionText(index, null, 'zh')).toBe('');
  });
});

describe('the region cascader', () => {
  it('labels options in the reader’s language, keeping the codes', () => {
    const zh = regionOptions(TABLE, 'zh');
    expect(zh[0]).toMatchObject({ value: '330000', label: '浙江省' });
    expect(zh[0]!.children![0]!.children![0]).toMatchObject({ value: '330106', label: '西湖区' });
    expect(regionOptions(TABLE, 'en')[0]!.label).toBe('Zhejiang Sheng');
    // A city without districts has no children to pick.
    expect(zh[2]!.children![0]!.children).toBeUndefined();
    expect(regionOptions(TABLE, 'zh')).toBe(zh);
  });

  it('finds regions by Chinese name or pinyin, with or without spaces and apostrophes', () => {
    const [zhejiang, , , shaanxi] = regionOptions(TABLE, 'en');
    const path = [zhejiang!, zhejiang!.children![0]!, zhejiang!.children![0]!.children![0]!];
    for (const q of ['西湖', 'xihu', 'XIHU QU', 'hangzhou', 'hangzhoushi', '浙江']) expect(regionSearchMatch(q, path), q).toBe(true);
    for (const q of ['beijing', '朝阳', '  ']) expect(regionSearchMatch(q, path), q).toBe(false);
    expect(regionSearchMatch('xian', [shaanxi!, shaanxi!.children![0]!])).toBe(true);
  });
});

describe('the region filter', () => {
  const codec = regionFilterCodec('region');
  it('keeps one code of any level in the URL and the path in the form', () => {
    expect(codec.toForm({ region: '330106' })).toEqual({ region: ['330000', '330100', '330106'] });
    expect(codec.toForm({ region: '330100' })).toEqual({ region: ['330000', '330100'] });
    expect(codec.toForm({ region: '330000' })).toEqual({ region: ['330000'] });
    expect(codec.toForm({ region: 'x' })).toEqual({ region: undefined });
    expect(codec.toForm({})).toEqual({ region: undefined });
    expect(codec.fromForm({ region: ['330000', '330100'] })).toEqual({ region: '330100' });
    expect(codec.fromForm({ region: undefined })).toEqual({ region: null });
  });
});
