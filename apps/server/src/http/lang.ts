import { DEFAULT_LANG, matchLang, type Lang } from '@app/contract';

export function requestLang(header: string | string[] | undefined): Lang {
  const value = Array.isArray(header) ? header.join(',') : header;
  return matchLang(value) ?? DEFAULT_LANG;
}
