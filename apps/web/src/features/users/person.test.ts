import { describe, expect, it } from 'vitest';
import { ageFrom, bmi, userBody, type UserFormValues } from './person';

describe('ageFrom', () => {
  const today = new Date(2025, 5, 15); // 2025-06-15 local
  it('counts whole years, birthday included', () => {
    expect(ageFrom('1990-06-15', today)).toBe(35);
    expect(ageFrom('1990-06-16', today)).toBe(34);
    expect(ageFrom('1990-01-01', today)).toBe(35);
    expect(ageFrom('2025-06-15', today)).toBe(0);
  });
  it('is null when unknown, malformed or in the future', () => {
    expect(ageFrom(null, today)).toBeNull();
    expect(ageFrom('', today)).toBeNull();
    expect(ageFrom('15/06/1990', today)).toBeNull();
    expect(ageFrom('2026-01-01', today)).toBeNull();
  });
});

describe('bmi', () => {
  it('rounds to one decimal and needs both measures', () => {
    expect(bmi(170, 65)).toBe(22.5);
    expect(bmi(null, 65)).toBeNull();
    expect(bmi(170, null)).toBeNull();
  });
});

describe('userBody', () => {
  const base: UserFormValues = { name: '  Ann ', gender: 'female', birth_date: '1990-05-17', phone: '', id_number: '', height_cm: 165.5, weight_kg: null, institution_id: 7 };

  it('add: empty personal numbers are null, text trimmed', () => {
    expect(userBody({ ...base, phone: ' 138 0013 8001 ' }, false)).toEqual({
      name: 'Ann',
      gender: 'female',
      birth_date: '1990-05-17',
      phone: '138 0013 8001',
      id_number: null,
      height_cm: 165.5,
      weight_kg: null,
      institution_id: 7,
    });
  });
  it('edit: empty personal numbers are left out (kept by the server)', () => {
    const body = userBody(base, true);
    expect(body).not.toHaveProperty('phone');
    expect(body).not.toHaveProperty('id_number');
    expect(JSON.parse(JSON.stringify(body))).toEqual({ name: 'Ann', gender: 'female', birth_date: '1990-05-17', height_cm: 165.5, weight_kg: null, institution_id: 7 });
  });
  it('edit: a typed number replaces, "remove" clears', () => {
    expect(userBody({ ...base, phone: '13900000000' }, true).phone).toBe('13900000000');
    const cleared = userBody({ ...base, phone: '13900000000', clear_phone: true, clear_id_number: true }, true);
    expect(cleared.phone).toBeNull();
    expect(cleared.id_number).toBeNull();
  });
  it('a cleared birth date is sent as null', () => {
    expect(userBody({ ...base, birth_date: null }, true).birth_date).toBeNull();
  });
});
