import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api/errors';
import { applyServerErrors } from './server-errors';

type Name = (string | number)[];

/** The three FormInstance calls applyServerErrors uses, over registered names and stored values. */
function fakeForm(registered: Name[], values: Record<string, unknown>) {
  const set: { name: Name; errors: string[] }[] = [];
  return {
    set,
    getFieldsError: () => registered.map((name) => ({ name, errors: [], warnings: [] })),
    getFieldsValue: ((all?: boolean) => (all ? values : {})) as never,
    setFields: (fields: { name: unknown; errors?: string[] }[]) => {
      for (const f of fields) set.push({ name: f.name as Name, errors: f.errors ?? [] });
    },
  };
}

const refusal = (fields: Record<string, string>) => new ApiError('business', 'Bad request', { code: 400, fields });

describe('applyServerErrors', () => {
  it('maps a field error onto a field that never held a value', () => {
    const form = fakeForm([['username'], ['phone']], { username: 'ada' });
    expect(applyServerErrors(form, refusal({ phone: 'Phone is taken' }))).toBe(true);
    expect(form.set).toEqual([{ name: ['phone'], errors: ['Phone is taken'] }]);
  });
  it('maps nested names ("a.b", list indexes) and skips fields the form does not have', () => {
    const form = fakeForm(
      [
        ['name', 'zh'],
        ['actions', 0, 'minutes'],
      ],
      {},
    );
    expect(applyServerErrors(form, refusal({ 'name.zh': 'Required', 'actions.0.minutes': 'Too long', other: 'x' }))).toBe(true);
    expect(form.set).toEqual([
      { name: ['name', 'zh'], errors: ['Required'] },
      { name: ['actions', 0, 'minutes'], errors: ['Too long'] },
    ]);
  });
  it('knows stored values without a field too (values kept under a key)', () => {
    const form = fakeForm([], { values: { site_title: 'x' } });
    expect(applyServerErrors(form, refusal({ 'values.site_title': 'Too long' }))).toBe(true);
  });
  it('does nothing for other errors or when nothing matches', () => {
    const form = fakeForm([['name']], {});
    expect(applyServerErrors(form, new Error('x'))).toBe(false);
    expect(applyServerErrors(form, refusal({}))).toBe(false);
    expect(applyServerErrors(form, refusal({ nope: 'x' }))).toBe(false);
    expect(form.set).toEqual([]);
  });
});
