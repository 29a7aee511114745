/**
 * System parameters between the wire (GET /params/list, POST /params/save) and the form: money_cents
 * is edited as a decimal amount (exact text, lib/money, never a float on the wire), strings are
 * trimmed like the server does, and a parameter is "changed" when its wire value differs from the
 * saved one.
 */
import type { ParamItem, ParamKey, ParamType } from '@app/contract/api/params';
import { centsToDecimal, decimalToCents } from '../../lib/money';

export type FormValue = string | number | null | undefined;

/** The groups of the page, in order; a key not listed here goes to "other". */
export const PARAM_GROUPS = [
  { key: 'general', params: ['site_title', 'default_language'] },
  { key: 'security', params: ['password_min_length', 'session_idle_minutes', 'session_absolute_hours', 'reauth_minutes', 'upload_daily_limit', 'mfa_required_admins'] },
  { key: 'finance', params: ['min_payout_cents'] },
  { key: 'reports', params: ['report_disclaimer', 'expiring_days', 'share_days', 'device_offline_hours', 'device_online_minutes', 'device_uses_low'] },
  { key: 'backups', params: ['backup_daily', 'backup_keep'] },
] as const satisfies readonly { key: string; params: readonly ParamKey[] }[];
export type GroupKey = (typeof PARAM_GROUPS)[number]['key'] | 'other';

/** Items by group, in the page's order (groups without items are left out). */
export function groupParams(items: readonly ParamItem[]): { key: GroupKey; items: ParamItem[] }[] {
  const placed = new Set<string>();
  const out: { key: GroupKey; items: ParamItem[] }[] = [];
  for (const g of PARAM_GROUPS) {
    const list = (g.params as readonly string[]).map((k) => items.find((i) => i.key === k)).filter((i): i is ParamItem => !!i);
    for (const i of list) placed.add(i.key);
    if (list.length) out.push({ key: g.key, items: list });
  }
  const rest = items.filter((i) => !placed.has(i.key));
  if (rest.length) out.push({ key: 'other', items: rest });
  return out;
}

/** Wire value -> form value. */
export function toForm(type: ParamType, value: string | number): FormValue {
  if (type === 'money_cents') return centsToDecimal(Number(value));
  return value;
}

/** Form value -> wire value (null when the field holds nothing usable). */
export function toWire(type: ParamType, value: FormValue): string | number | null {
  switch (type) {
    case 'money_cents':
      return decimalToCents(value);
    case 'integer':
      return value == null || value === '' ? null : Number(value);
    case 'string':
    case 'text':
      return typeof value === 'string' ? value.trim() : value == null ? '' : String(value);
    case 'enum':
      return value == null ? null : String(value);
  }
}

/** Form values of every item (nested under `values`, the key the server's field errors use). */
export function formValuesOf(items: readonly ParamItem[]): { values: Record<string, FormValue> } {
  return { values: Object.fromEntries(items.map((i) => [i.key, toForm(i.type, i.value)])) };
}

/** Keys whose form value differs from the saved one (an emptied field counts as changed). */
export function changedKeys(items: readonly ParamItem[], form: Record<string, FormValue> | undefined): ParamKey[] {
  if (!form) return [];
  return items.filter((i) => i.key in form && toWire(i.type, form[i.key]) !== i.value).map((i) => i.key);
}

/** The body of POST /params/save: only the changed parameters, as wire values (call after validation). */
export function saveValues(items: readonly ParamItem[], form: Record<string, FormValue>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const key of changedKeys(items, form)) {
    const item = items.find((i) => i.key === key)!;
    const wire = toWire(item.type, form[key]);
    if (wire !== null) out[key] = wire;
  }
  return out;
}

/** Whether a form value equals the parameter's default. */
export function isDefault(item: ParamItem, value: FormValue): boolean {
  return toWire(item.type, value) === item.default;
}
