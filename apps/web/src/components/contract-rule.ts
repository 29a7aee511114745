/**
 * Client rules that run the contract's own zod schemas, so the form says at the field what the server
 * would answer (same message, in the user's language, from the contract's MESSAGES):
 * `rules={[contractRule(phoneSchema, lang, t('form.badPhone'))]}`. The schema comes from the feature's
 * import (`@app/contract/api/<module>`), so zod loads with the page that uses it, not with this file.
 */
import type { Rule } from 'antd/es/form';
import { formatMessage, MESSAGES, type MessageKey } from '@app/contract/messages';
import type { Lang } from '@app/contract/i18n';

interface Parser {
  safeParse: (v: unknown) => { success: boolean; error?: { issues: readonly unknown[] } };
}

/** The localized message of the first failed issue (custom refinements carry `params.msg`), else `fallback`. */
export function contractMessage(schema: Parser, value: unknown, lang: Lang, fallback: string): string | null {
  const res = schema.safeParse(value);
  if (res.success) return null;
  const params = (res.error?.issues[0] as { params?: Record<string, unknown> } | undefined)?.params;
  const key = params?.msg;
  if (typeof key === 'string' && key in MESSAGES) return formatMessage(key as MessageKey, lang, params as Record<string, string | number>);
  return fallback;
}

/** An antd rule for an optional text field: empty passes (use `required` for that), otherwise the schema decides. */
export function contractRule(schema: Parser, lang: Lang, fallback: string): Rule {
  return {
    validator: async (_, value: unknown) => {
      if (value == null || (typeof value === 'string' && value.trim() === '')) return;
      const msg = contractMessage(schema, value, lang, fallback);
      if (msg) throw new Error(msg);
    },
  };
}
