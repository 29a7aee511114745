import { describe, expect, it } from 'vitest';
import { PARAM_KEYS, PARAM_META, type ParamItem } from '@app/contract/api/params';
import { changedKeys, formValuesOf, groupParams, isDefault, saveValues, toForm, toWire } from './values';

const items: ParamItem[] = PARAM_KEYS.map((key) => ({ key, ...PARAM_META[key], value: PARAM_META[key].default }) as ParamItem);

describe('money conversions (lib/money, exact)', () => {
  it('is exact both ways', () => {
    expect(toWire('money_cents', '100.00')).toBe(10_000);
    expect(toWire('money_cents', '0.29')).toBe(29);
    expect(toWire('money_cents', 12.5)).toBe(1250);
    expect(toWire('money_cents', '')).toBeNull();
    expect(toWire('money_cents', 'x')).toBeNull();
    expect(toForm('money_cents', 10_000)).toBe('100.00');
    expect(toForm('money_cents', 5)).toBe('0.05');
  });
  it('refuses what it cannot send exactly (too many decimals, negatives)', () => {
    expect(toWire('money_cents', '19.995')).toBeNull();
    expect(toWire('money_cents', '-1')).toBeNull();
  });
});

describe('groups', () => {
  it('places every parameter once, in the page order', () => {
    const groups = groupParams(items);
    expect(groups.map((g) => g.key)).toEqual(['general', 'security', 'finance', 'reports', 'backups']);
    expect(groups.flatMap((g) => g.items.map((i) => i.key)).sort()).toEqual([...PARAM_KEYS].sort());
  });
  it('puts unknown keys under "other"', () => {
    const extra = { ...items[0]!, key: 'future_key' } as unknown as ParamItem;
    expect(groupParams([...items, extra]).at(-1)).toMatchObject({ key: 'other', items: [extra] });
  });
});

describe('changes', () => {
  it('finds nothing changed in the loaded values', () => {
    expect(changedKeys(items, formValuesOf(items).values)).toEqual([]);
  });
  it('compares wire values: trimmed text, cents, numbers', () => {
    const form = formValuesOf(items).values;
    form.site_title = `  ${PARAM_META.site_title.default}  `;
    expect(changedKeys(items, form)).toEqual([]);
    form.min_payout_cents = '50.5';
    form.password_min_length = 10;
    form.report_disclaimer = '';
    expect(changedKeys(items, form)).toEqual(['min_payout_cents', 'password_min_length', 'report_disclaimer']);
    expect(saveValues(items, form)).toEqual({ min_payout_cents: 5050, password_min_length: 10, report_disclaimer: '' });
  });
  it('counts an emptied number as a change but never sends null', () => {
    const form = { ...formValuesOf(items).values, expiring_days: null };
    expect(changedKeys(items, form)).toEqual(['expiring_days']);
    expect(saveValues(items, form)).toEqual({});
  });
  it('knows the defaults', () => {
    const money = items.find((i) => i.key === 'min_payout_cents')!;
    expect(isDefault(money, '100')).toBe(true);
    expect(isDefault(money, '100.01')).toBe(false);
    expect(toWire('integer', '12')).toBe(12);
  });
});
