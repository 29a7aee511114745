import type { FormInstance } from 'antd';
import { isApiError } from '../lib/api';

type Form = Pick<FormInstance, 'getFieldsError' | 'getFieldsValue' | 'setFields'>;

/** "items.0.price" -> ['items', 0, 'price'] (antd name path). */
const namePath = (name: string) => name.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));

/**
 * Maps `ApiError.fields` ("name" or "a.b") onto the form's fields; returns whether any matched. A field
 * counts when the form has it: a registered Form.Item (even one that never held a value) or a value.
 */
export function applyServerErrors(form: Form, error: unknown): boolean {
  if (!isApiError(error) || !Object.keys(error.fields).length) return false;
  const known = new Set<string>(Object.keys(form.getFieldsValue(true) ?? {}));
  for (const f of form.getFieldsError()) if (f.name.length) known.add(String(f.name[0]));
  const entries = Object.entries(error.fields).filter(([name]) => known.has(name.split('.')[0]!));
  if (entries.length) form.setFields(entries.map(([name, msg]) => ({ name: namePath(name), errors: [msg] })));
  return entries.length > 0;
}
