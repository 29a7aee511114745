import { describe, expect, it } from 'vitest';
import { idNumberSchema, phoneSchema } from '@app/contract/api/person';
import { userFields } from '@app/contract/api/users';
import { limitsOf } from '../../components/form-rules';

describe('UserForm limits come from the contract', () => {
  it('name at most 50, phone input at most 40, ID number at most 32 characters', () => {
    expect(limitsOf(userFields.name).maxLength).toBe(50);
    expect(limitsOf(phoneSchema).maxLength).toBe(40);
    expect(limitsOf(idNumberSchema).maxLength).toBe(32);
  });
});
