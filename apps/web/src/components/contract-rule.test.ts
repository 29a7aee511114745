import { describe, expect, it } from 'vitest';
import { phoneSchema } from '@app/contract/api/person';
import { contractMessage } from './contract-rule';

describe('contractMessage', () => {
  it('passes valid phones (with the separators people type)', () => {
    expect(contractMessage(phoneSchema, '138 1234-5601', 'en', 'bad')).toBeNull();
    expect(contractMessage(phoneSchema, '+14155550123', 'en', 'bad')).toBeNull();
  });
  it('answers the server message in the user language', () => {
    expect(contractMessage(phoneSchema, '12ab', 'en', 'bad')).toMatch(/5 to 20 digits/);
    expect(contractMessage(phoneSchema, '12ab', 'zh', 'bad')).toMatch(/5-20 位数字/);
  });
  it('falls back when the issue has no message key', () => {
    expect(contractMessage(phoneSchema, 'x'.repeat(41), 'en', 'bad')).toBe('bad');
  });
});
