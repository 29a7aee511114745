import { describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n';
import { successToast } from './endpoint-queries';

describe('useEndpointMutation success toast', () => {
  it('says "Saved" by default and the caller\'s text when given', () => {
    expect(successToast(undefined)).toBe(i18n.t('form.saved'));
    expect(successToast(undefined)).toBeTruthy();
    expect(successToast('Deleted')).toBe('Deleted');
  });
  it('shows no toast for false or a blank text (never an empty one)', () => {
    expect(successToast(false)).toBeNull();
    expect(successToast('')).toBeNull();
    expect(successToast('  ')).toBeNull();
  });
});
