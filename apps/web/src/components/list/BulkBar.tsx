import { useCallback, type ReactNode } from 'react';
import App from 'antd/es/app';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import { useTranslation } from 'react-i18next';
import type { BulkAnswer } from '@app/contract/api/bulk';
import { formatNumber } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import './shape-locales';

/** Above a list's table while rows are selected: how many, the actions on them, and clearing the selection. */
export function BulkBar({ count, onClear, children }: { count: number; onClear: () => void; children: ReactNode }) {
  const { t } = useTranslation('shape');
  const lang = useSettings((s) => s.lang);
  if (!count) return null;
  return (
    <section className="bulk-bar" aria-label={t('bulk.actions')} data-testid="bulk-bar">
      <Flex align="center" gap={8} wrap style={{ marginBottom: 12, padding: '6px 12px', borderRadius: 6, background: 'var(--ant-color-primary-bg, rgba(22,119,255,0.08))' }}>
        <strong data-testid="bulk-count">{t('bulk.selected', { n: formatNumber(count, lang) })}</strong>
        {children}
        <Button type="link" onClick={onClear} data-testid="bulk-clear">
          {t('bulk.clear')}
        </Button>
      </Flex>
    </section>
  );
}

/** Shows a bulk action's per-row answer: what was done and what was refused, by name, with the reason. */
export function useBulkReport() {
  const { t } = useTranslation('shape');
  const { modal } = App.useApp();
  return useCallback(
    (action: string, answer: BulkAnswer) => {
      const refused = answer.refused.length;
      const content = (
        <div data-testid="bulk-report">
          {refused ? (
            <>
              <p>{t('bulk.perRow')}</p>
              <strong>{t('bulk.refusedList')}</strong>
              <ul data-testid="bulk-refused">
                {answer.refused.map((r) => (
                  <li key={r.id}>
                    <span className="mono">{r.name}</span>: {r.reason}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {answer.done.length ? (
            <>
              <strong>{t('bulk.doneList')}</strong>
              <p className="mono" data-testid="bulk-done" style={{ wordBreak: 'break-word' }}>
                {answer.done.map((r) => r.name).join(', ')}
              </p>
            </>
          ) : null}
        </div>
      );
      const title = refused ? t('bulk.resultTitle', { action, done: answer.done.length, refused }) : t('bulk.allDone', { action, done: answer.done.length });
      (refused ? modal.warning : modal.success)({ title, content, width: 520 });
    },
    [modal, t],
  );
}
