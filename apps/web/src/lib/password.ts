import { CLIENT_MIN_PASSWORD } from '@app/contract/constants';

/** Spec §5 client rules for a new password: a message key (namespace common) or null when acceptable. */
export function passwordRuleError(value: unknown): { key: string; params?: Record<string, unknown> } | null {
  const text = typeof value === 'string' ? value : '';
  if (!text) return { key: 'password.empty' };
  if (text.trim().length < CLIENT_MIN_PASSWORD) return { key: 'password.tooShort', params: { min: CLIENT_MIN_PASSWORD } };
  return null;
}
