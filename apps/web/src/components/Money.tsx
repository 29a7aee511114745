import { useSettings } from '../lib/settings';
import { formatMoney } from '../lib/money';

/** Integer cents as localized currency text. */
export function Money({ cents, currency }: { cents: number | null | undefined; currency?: string }) {
  const lang = useSettings((s) => s.lang);
  return <span className="money">{formatMoney(cents, lang, currency)}</span>;
}
