import { describe, expect, it } from 'vitest';
import { PACKAGE_LIMITS, packageFields } from '@app/contract/api/packages';
import { fieldRules, limitsOf, schemaMessage } from '../../components/form-rules';

describe('PackageForm limits come from the contract', () => {
  it("name and description lengths, uses and days bounds are the contract's", () => {
    expect(limitsOf(packageFields.name).maxLength).toBe(PACKAGE_LIMITS.nameLength);
    expect(limitsOf(packageFields.description).maxLength).toBe(PACKAGE_LIMITS.descriptionLength);
    expect(limitsOf(packageFields.uses)).toMatchObject({ min: 1, max: PACKAGE_LIMITS.maxUses });
    expect(limitsOf(packageFields.days)).toMatchObject({ min: 1, max: PACKAGE_LIMITS.maxDays });
  });

  it('the name is required and refused past its length, the description is optional', () => {
    expect(fieldRules(packageFields.name, 'en', 'Name')[0]).toMatchObject({ required: true });
    expect(fieldRules(packageFields.description, 'en', 'Description').some((r) => 'required' in r)).toBe(false);
    expect(schemaMessage(packageFields.name, 'x'.repeat(PACKAGE_LIMITS.nameLength + 1), 'en', 'Name')).toBeTruthy();
    expect(schemaMessage(packageFields.name, 'x'.repeat(PACKAGE_LIMITS.nameLength), 'en', 'Name')).toBeNull();
  });
});
