import type { Lang } from '@app/contract/i18n';
import { LANG_TAGS } from './lang';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export type RelativeTime = { kind: 'justNow' } | { kind: 'minutes'; value: number } | { kind: 'hours'; value: number } | { kind: 'oneDay' } | { kind: 'date'; value: Date };

/** Spec §9: just now under 30 s, minutes under 1 h, hours under 1 day, '1 day ago' under 2 days, else the date. */
export function classifyRelative(then: Date | string | number, now: Date | number = Date.now()): RelativeTime {
  const at = then instanceof Date ? then : new Date(then);
  const diff = (typeof now === 'number' ? now : now.getTime()) - at.getTime();
  if (diff < 30 * SECOND) return { kind: 'justNow' };
  if (diff < HOUR) return { kind: 'minutes', value: Math.max(1, Math.floor(diff / MINUTE)) };
  if (diff < DAY) return { kind: 'hours', value: Math.floor(diff / HOUR) };
  if (diff < 2 * DAY) return { kind: 'oneDay' };
  return { kind: 'date', value: at };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD HH:mm in local time. */
export function formatDateTime(value: Date | string | number | null | undefined): string {
  if (value == null || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** YYYY-MM-DD in local time. */
export function formatDate(value: Date | string | number | null | undefined): string {
  return formatDateTime(value).slice(0, 10);
}

const JUST_NOW: Record<Lang, string> = { zh: '刚刚', en: 'just now', es: 'justo ahora', ja: 'たった今' };

/** Localized relative time; plural forms come from Intl.RelativeTimeFormat. */
export function relativeTime(then: Date | string | number, lang: Lang, now: Date | number = Date.now()): string {
  const r = classifyRelative(then, now);
  const rtf = () => new Intl.RelativeTimeFormat(LANG_TAGS[lang], { numeric: 'always' });
  switch (r.kind) {
    case 'justNow':
      return JUST_NOW[lang];
    case 'minutes':
      return rtf().format(-r.value, 'minute');
    case 'hours':
      return rtf().format(-r.value, 'hour');
    case 'oneDay':
      return rtf().format(-1, 'day');
    case 'date':
      return formatDateTime(r.value);
  }
}
