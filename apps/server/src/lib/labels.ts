import type { L10n, Lang } from '@app/contract';
import { pickText } from '@app/contract';

/** Texts of the exported files (column titles and values), in the reader's language. */
export const t = (zh: string, en: string, es: string, ja: string): L10n => ({ zh, en, es, ja });
export const label = (text: L10n, lang: Lang) => pickText(text, lang);

/** Money as messages and notices write it: cents to units with two decimals ("1234.50"). */
export const moneyText = (cents: number) => (cents / 100).toFixed(2);

/** A person's gender as the files write it (doctors, users). */
export const GENDER_LABELS = {
  male: t('男', 'Male', 'Hombre', '男性'),
  female: t('女', 'Female', 'Mujer', '女性'),
  other: t('其他', 'Other', 'Otro', 'その他'),
};
