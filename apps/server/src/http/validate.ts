import { z } from 'zod';
import type { Lang } from '@app/contract';
import { badRequestText } from './errors';
import { formatMessage } from '@app/contract';

const zodLocales = { zh: z.locales.zhCN, en: z.locales.en, es: z.locales.es, ja: z.locales.ja } as const;
const errorMaps = Object.fromEntries(Object.entries(zodLocales).map(([k, f]) => [k, f().localeError])) as Record<Lang, z.core.$ZodErrorMap>;

/** Parses input with a contract schema; failures become a 400 in the caller's language, with per-field messages. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, lang: Lang): z.infer<S> {
  const result = schema.safeParse(input ?? {}, { error: errorMaps[lang] });
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join('.') || '_';
    fields[path] ??= issue.message;
  }
  const detail = Object.entries(fields).map(([p, m]) => (p === '_' ? m : `${p}: ${m}`)).join('; ');
  throw badRequestText(formatMessage('invalidInput', lang, { detail }), fields);
}
