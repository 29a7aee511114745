import { lazy, Suspense } from 'react';
import Alert from 'antd/es/alert';
import { useTranslation } from 'react-i18next';
import { useSession } from '../lib/session';
import { formatDateTime } from '../lib/time';

/** The code field (features/codes), loaded only when the notice shows. */
const OverdueRedeem = lazy(() => import('../features/codes/OverdueRedeem'));

/** Persistent while the institution's term is expired (code 998 / info.overdue), with the field to redeem a code. */
export function OverdueNotice() {
  const { t } = useTranslation();
  const show = useSession((s) => s.showOverdue);
  const term = useSession((s) => s.termExpiresAt);
  if (!show) return null;
  return (
    <Alert
      type="warning"
      showIcon
      banner
      role="alert"
      className="overdue-notice"
      data-testid="overdue-notice"
      title={t('api.overdueTitle') + (term ? ` (${formatDateTime(term)})` : '')}
      description={
        <>
          {t('api.overdueText')}
          <Suspense fallback={null}>
            <OverdueRedeem />
          </Suspense>
        </>
      }
    />
  );
}
