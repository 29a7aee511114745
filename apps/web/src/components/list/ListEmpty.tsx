import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import { useTranslation } from 'react-i18next';

export type EmptyReason = 'no-data' | 'no-match' | 'error' | 'loading';

/** Says why a list is empty (ui.md): nothing yet, nothing matching the filters, or a failed load. */
export function ListEmpty({ reason, onClear, onRetry, noDataText, errorText }: { reason: EmptyReason; onClear?: () => void; onRetry?: () => void; noDataText?: string; errorText?: string }) {
  const { t } = useTranslation();
  if (reason === 'loading') return <div style={{ height: 120 }} />;
  const [title, hint] =
    reason === 'no-match'
      ? [t('list.emptyNoMatch'), t('list.emptyNoMatchHint')]
      : reason === 'error'
        ? [t('list.loadFailed'), errorText ?? null]
        : [noDataText ?? t('list.emptyNoData'), t('list.emptyNoDataHint')];
  return (
    <Empty
      data-testid="list-empty"
      data-reason={reason}
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <>
          <div style={{ fontWeight: 500 }}>{title}</div>
          {hint ? <div style={{ fontSize: 12, color: 'var(--app-text-2)' }}>{hint}</div> : null}
        </>
      }
    >
      {reason === 'no-match' && onClear ? <Button onClick={onClear}>{t('list.clearFilters')}</Button> : null}
      {reason === 'error' && onRetry ? <Button onClick={onRetry}>{t('list.retry')}</Button> : null}
    </Empty>
  );
}
