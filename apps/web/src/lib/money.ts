import type { Lang } from '@app/contract/i18n';
import { LANG_TAGS } from './lang';

/** Currency of every amount in the product (money is integer cents on the wire). */
export const CURRENCY = 'CNY';

const cache = new Map<string, Intl.NumberFormat>();
function fmt(lang: Lang, currency: string) {
  const k = `${lang}:${currency}`;
  let f = cache.get(k);
  if (!f) {
    f = new Intl.NumberFormat(LANG_TAGS[lang], { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
    cache.set(k, f);
  }
  return f;
}

/** Integer cents -> localized currency text ("¥1,234.50"). Null/undefined -> ''. Exact for any safe integer. */
export function formatMoney(cents: number | null | undefined, lang: Lang, currency: string = CURRENCY): string {
  if (cents == null || !Number.isFinite(cents)) return '';
  // Build the decimal from integers so no float rounding sneaks in.
  return fmt(lang, currency).format(Number(centsToDecimal(cents)));
}

// ------------------------------------------------------------------ exact decimal text <-> integers

const DECIMAL_TEXT = /^(\d*)(?:\.(\d*))?$/;

/**
 * Exact decimal text -> an integer count of 10^-scale units, without floats: `decimalToUnits('12.3', 2)`
 * = 1230. Strict, so nothing is silently rounded or re-read: plain digits with an optional '.',
 * surrounding spaces allowed, at most `scale` decimals (trailing zeros beyond them are fine: '1.500').
 * Refused (null): empty text, a sign ('-5', '+5'), thousands separators ('1,234.56': the comma is the
 * decimal separator in es, so it is never guessed), exponents, too many decimals ('1.005'), and values
 * beyond Number.MAX_SAFE_INTEGER units. A number is read through its shortest text (19.99 -> '19.99').
 */
export function decimalToUnits(value: string | number | null | undefined, scale: number): number | null {
  if (value == null) return null;
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  const m = DECIMAL_TEXT.exec(String(value).trim());
  if (!m) return null;
  const whole = m[1] ?? '';
  let frac = m[2] ?? '';
  if (!whole && !frac) return null;
  if (frac.length > scale) {
    if (/[^0]/.test(frac.slice(scale))) return null;
    frac = frac.slice(0, scale);
  }
  const n = Number(whole + frac.padEnd(scale, '0'));
  return Number.isSafeInteger(n) ? n : null;
}

/** An integer count of 10^-scale units -> its exact decimal text: `unitsToDecimal(1230, 2)` = '12.30'. */
export function unitsToDecimal(units: number, scale: number): string {
  if (!Number.isFinite(units)) return '';
  const int = Math.trunc(units);
  const digits = String(Math.abs(int)).padStart(scale + 1, '0');
  const text = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return int < 0 ? `-${text}` : text;
}

/**
 * An amount typed in yuan -> integer cents, exactly: '12.3' -> 1230, '0.1' -> 10, '7' -> 700. null for
 * anything that is not a plain non-negative amount with at most 2 decimals (see decimalToUnits).
 * Money forms edit the decimal text (InputNumber `stringMode` with `precision={2}`) and send this.
 */
export const decimalToCents = (value: string | number | null | undefined): number | null => decimalToUnits(value, 2);

/** Integer cents -> the decimal text a form edits: 1230 -> '12.30', 5 -> '0.05', -250 -> '-2.50'. */
export const centsToDecimal = (cents: number): string => unitsToDecimal(cents, 2);

/** Localized plain number (thousands separators). */
export function formatNumber(n: number, lang: Lang): string {
  return new Intl.NumberFormat(LANG_TAGS[lang]).format(n);
}
