import { z } from 'zod';
import { formatMessage, MESSAGES, type Lang, type MessageKey } from '@app/contract';
import { AppError, badRequestText } from './errors';

/*
 * Form validation with the product's own messages. Contract schemas mark a custom refinement with
 * `withMessage('messageKey', params)` (params.msg); parseForm renders those from MESSAGES in the
 * caller's language and everything else with zod's locale, as parseInput does. Business rules that
 * need the database throw `fieldError(field, key)`: the route helpers of lib/crud.ts turn it into a
 * 400 whose per-field message is in the caller's language too.
 */

const zodLocales = { zh: z.locales.zhCN, en: z.locales.en, es: z.locales.es, ja: z.locales.ja } as const;
const isMessageKey = (v: unknown): v is MessageKey => typeof v === 'string' && Object.hasOwn(MESSAGES, v);

const errorMaps = Object.fromEntries(
  Object.entries(zodLocales).map(([lang, locale]) => {
    const base = locale().localeError;
    const map: z.core.$ZodErrorMap = (issue) => {
      const params = (issue as { params?: Record<string, unknown> }).params;
      if (issue.code === 'custom' && isMessageKey(params?.msg)) return formatMessage(params.msg, lang as Lang, params as Record<string, string | number>);
      return base(issue);
    };
    return [lang, map];
  }),
) as Record<Lang, z.core.$ZodErrorMap>;

/** parseInput with the product's messages for marked refinements: 400 with per-field messages on failure. */
export function parseForm<S extends z.ZodType>(schema: S, input: unknown, lang: Lang): z.infer<S> {
  const result = schema.safeParse(input ?? {}, { error: errorMaps[lang] });
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
  const detail = Object.entries(fields)
    .map(([p, m]) => (p === '_' ? m : `${p}: ${m}`))
    .join('; ');
  throw badRequestText(formatMessage('invalidInput', lang, { detail }), fields);
}

/** A business refusal about one form field (answers 400; with `datas.fields[field]` through lib/crud.ts routes). */
export class FieldError extends AppError {
  constructor(
    public readonly field: string,
    key: MessageKey,
    params: Record<string, string | number> = {},
  ) {
    super(400, key, params);
  }
}
export const fieldError = (field: string, key: MessageKey, params?: Record<string, string | number>) => new FieldError(field, key, params);

/** Gives a FieldError its per-field message in the caller's language; other errors pass through. */
export function localizeFieldError(error: unknown, lang: Lang): unknown {
  if (!(error instanceof FieldError)) return error;
  const text = error.text(lang);
  return badRequestText(text, { [error.field]: text });
}

/** Whether a database error is a unique violation (PostgreSQL and PGlite, raw or wrapped by drizzle). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}
