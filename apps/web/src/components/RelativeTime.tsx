import { useEffect, useState } from 'react';
import Tooltip from 'antd/es/tooltip';
import { useSettings } from '../lib/settings';
import { formatDateTime, relativeTime } from '../lib/time';

/** "5 minutes ago" with the full date in a tooltip; refreshes every minute. Empty value -> placeholder. */
export function RelativeTime({ value, placeholder = '—' }: { value: string | number | Date | null | undefined; placeholder?: string }) {
  const lang = useSettings((s) => s.lang);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(id);
  }, []);
  if (value == null || value === '') return <span className="text-muted">{placeholder}</span>;
  const full = formatDateTime(value);
  return (
    <Tooltip title={full}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users can open the tooltip with the full date (a tooltip shows on hover or focus) */}
      <time dateTime={new Date(value).toISOString()} tabIndex={0}>
        {relativeTime(value, lang, now)}
      </time>
    </Tooltip>
  );
}
