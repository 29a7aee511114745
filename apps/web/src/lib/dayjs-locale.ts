/**
 * dayjs follows the interface language (date pickers, relative dates). Loaded with the shell and
 * pages, not with the login page, which has no dates.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/es';
import 'dayjs/locale/ja';
import type { Lang } from '@app/contract/i18n';
import { useSettings } from './settings';

const DAYJS_LOCALES: Record<Lang, string> = { zh: 'zh-cn', en: 'en', es: 'es', ja: 'ja' };

dayjs.locale(DAYJS_LOCALES[useSettings.getState().lang]);
useSettings.subscribe((s, prev) => {
  if (s.lang !== prev.lang) dayjs.locale(DAYJS_LOCALES[s.lang]);
});

export { dayjs };
