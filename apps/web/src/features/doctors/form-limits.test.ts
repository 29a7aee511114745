import { describe, expect, it } from 'vitest';
import { doctorFields } from '@app/contract/api/doctors';
import { limitsOf, schemaMessage } from '../../components/form-rules';

describe('DoctorForm limits come from the contract', () => {
  it('name and title at most 50, phone input at most 40 characters', () => {
    expect(limitsOf(doctorFields.name).maxLength).toBe(50);
    expect(limitsOf(doctorFields.title).maxLength).toBe(50);
    expect(limitsOf(doctorFields.phone).maxLength).toBe(40);
  });
  it('the phone field says what the server says', () => {
    expect(schemaMessage(doctorFields.phone, '12ab', 'en', 'Phone')).toMatch(/5 to 20 digits/);
    expect(schemaMessage(doctorFields.phone, '138 0013 8001', 'en', 'Phone')).toBeNull();
  });
});
