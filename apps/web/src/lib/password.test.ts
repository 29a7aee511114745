import { describe, expect, it } from 'vitest';
import { passwordRuleError } from './password';

describe('passwordRuleError (spec §5)', () => {
  it('refuses empty', () => {
    expect(passwordRuleError('')?.key).toBe('password.empty');
    expect(passwordRuleError(undefined)?.key).toBe('password.empty');
  });
  it('refuses fewer than 3 characters after trimming', () => {
    expect(passwordRuleError('   ')?.key).toBe('password.tooShort');
    expect(passwordRuleError(' ab ')).toEqual({ key: 'password.tooShort', params: { min: 3 } });
  });
  it('accepts 3 or more', () => {
    expect(passwordRuleError('abc')).toBeNull();
    expect(passwordRuleError(' abc ')).toBeNull();
  });
});
