/**
 * antd form rules from the contract's zod schemas, so that a limit is stated once (in the contract)
 * and the form says at the field what the server would answer:
 *
 *   <Form.Item name="name" rules={fieldRules(packageFields.name, lang, t('form.name'))}>
 *     <Input maxLength={limitsOf(packageFields.name).maxLength} />
 *
 * Required-ness comes from the schema (it refuses `undefined` or an empty text), the rest from its
 * checks: the first failed issue's message, in the user's language (the product's own message for a
 * refinement marked `withMessage`, zod's locale otherwise).
 */
import type { Rule } from 'antd/es/form';
import type { z } from 'zod';
import type { Lang } from '@app/contract/i18n';
import { formatMessage, MESSAGES, type MessageKey } from '@app/contract/messages';
import { t } from '../lib/i18n';

type Schema = z.ZodType;

/** The numeric and length bounds a schema states (unwrapping optional / default / nullable / pipes). */
export function limitsOf(schema: Schema): { min?: number; max?: number; minLength?: number; maxLength?: number } {
  const s = unwrap(schema) as unknown as { minValue?: number | null; maxValue?: number | null; minLength?: number | null; maxLength?: number | null };
  const finite = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < Number.MAX_SAFE_INTEGER ? v : undefined);
  return { min: finite(s.minValue), max: finite(s.maxValue), minLength: finite(s.minLength), maxLength: finite(s.maxLength) };
}

function unwrap(schema: Schema): Schema {
  let s = schema as unknown as { unwrap?: () => Schema; def?: { innerType?: Schema; in?: Schema; out?: Schema; type?: string } };
  for (let i = 0; i < 8; i++) {
    const def = s.def;
    if (def?.innerType) s = def.innerType as never;
    else if (def?.type === 'pipe' && def.in) s = (def.in as unknown as { def?: { type?: string } }).def?.type === 'transform' ? (def.out as never) : (def.in as never);
    else break;
  }
  return s as unknown as Schema;
}

const isEmpty = (v: unknown) => v == null || (typeof v === 'string' && v.trim() === '');

/** The message of the first failed issue in the user's language, or null when the value passes. */
export function schemaMessage(schema: Schema, value: unknown, lang: Lang, label: string): string | null {
  const res = schema.safeParse(value);
  if (res.success) return null;
  const issue = res.error.issues[0] as (z.core.$ZodIssue & { params?: Record<string, unknown>; minimum?: unknown; maximum?: unknown }) | undefined;
  const key = issue?.params?.msg;
  if (typeof key === 'string' && Object.hasOwn(MESSAGES, key)) return formatMessage(key as MessageKey, lang, issue!.params as Record<string, string | number>);
  if (issue?.code === 'too_big') return t(typeof value === 'string' ? 'form.tooLong' : 'form.tooBig', { field: label, max: String(issue.maximum) });
  if (issue?.code === 'too_small')
    return typeof value === 'string' && value.trim() === ''
      ? t('form.required', { field: label })
      : t(typeof value === 'string' ? 'form.tooShort' : 'form.tooSmall', { field: label, min: String(issue.minimum) });
  return t('form.invalid', { field: label });
}

/** Rules for one field: required when the schema refuses an empty value, then the schema itself. */
export function fieldRules(schema: Schema, lang: Lang, label: string, opts: { select?: boolean } = {}): Rule[] {
  const required = !schema.safeParse(undefined).success && !schema.safeParse('').success;
  return [
    ...(required ? [{ required: true, whitespace: true, message: t(opts.select ? 'form.requiredSelect' : 'form.required', { field: label }) } satisfies Rule] : []),
    {
      validator: async (_: unknown, value: unknown) => {
        if (isEmpty(value)) return;
        const msg = schemaMessage(schema, value, lang, label);
        if (msg) throw new Error(msg);
      },
    },
  ];
}
