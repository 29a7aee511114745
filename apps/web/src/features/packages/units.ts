/**
 * Units of the package form: the form edits decimal text (yuan, percent with 2 decimals) and the wire
 * carries integers (cents, basis points). The exact conversions are lib/money's (decimalToCents,
 * centsToDecimal, decimalToUnits): no float rounding reaches the wire.
 */
import type { Lang } from '@app/contract/i18n';
import { LANG_TAGS } from '../../lib/lang';
import { decimalToUnits, unitsToDecimal } from '../../lib/money';

/** A percentage with up to 2 decimals (the form's text) -> basis points, exactly: '12.34' -> 1234. */
export const percentToBp = (value: string | number | null | undefined): number | null => decimalToUnits(value, 2);

/** Basis points -> the form's percentage text: 2000 -> '20.00'. */
export const bpToPercent = (bp: number): string => unitsToDecimal(bp, 2);

const percentFormats = new Map<Lang, Intl.NumberFormat>();
/** Basis points as a localized percentage: 2000 -> "20%", 1234 -> "12.34%". */
export function formatBp(bp: number, lang: Lang): string {
  let f = percentFormats.get(lang);
  if (!f) {
    f = new Intl.NumberFormat(LANG_TAGS[lang], { style: 'percent', minimumFractionDigits: 0, maximumFractionDigits: 2 });
    percentFormats.set(lang, f);
  }
  return f.format(bp / 10_000);
}

/** The commission the two ancestors get on one sale at these rates (each rounded to a cent, half up). */
export function commissionCents(priceCents: number, l1Bp: number, l2Bp: number): number {
  return Math.round((priceCents * l1Bp) / 10_000) + Math.round((priceCents * l2Bp) / 10_000);
}
