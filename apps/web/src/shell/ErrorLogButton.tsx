import Button from 'antd/es/button';
import Tooltip from 'antd/es/tooltip';
import BugOutlined from '@ant-design/icons/es/icons/BugOutlined';
import { useTranslation } from 'react-i18next';
import { useErrorLog } from '../lib/error-log';
import { useUi } from '../lib/ui';

export function ErrorLogButton() {
  const { t } = useTranslation();
  const count = useErrorLog((s) => s.entries.length);
  const set = useUi((s) => s.set);
  return (
    <Tooltip title={t('nav.errorLog')}>
      <span className="icon-badge">
        <Button
          type="text"
          aria-label={`${t('nav.errorLog')}${count ? ` (${count})` : ''}`}
          icon={<BugOutlined />}
          onClick={() => set({ errorLogOpen: true })}
          data-testid="error-log-button"
          danger={count > 0}
        />
        {count ? (
          <span className="icon-badge-count" data-testid="error-log-badge" aria-hidden>
            {count > 99 ? '99+' : count}
          </span>
        ) : null}
      </span>
    </Tooltip>
  );
}
