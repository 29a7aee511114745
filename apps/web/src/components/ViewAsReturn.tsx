/**
 * While a super-admin views the console as another role (session `viewingAs`): the "Viewing as <role>"
 * tag and the "Return to my role" button. Shown by the navbar and by the 401/404 pages (a role may
 * have no page at all). Nothing while not viewing.
 */
import { useState } from 'react';
import Button from 'antd/es/button';
import Tag from 'antd/es/tag';
import RollbackOutlined from '@ant-design/icons/es/icons/RollbackOutlined';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../lib/session';
import { exitViewAs } from '../lib/view-as';
import { hasFeedback, withFeedback } from '../lib/feedback';
import { t as translate } from '../lib/i18n';

export function ViewAsReturn({ className }: { className?: string }) {
  const { t } = useTranslation();
  const viewingAs = useSession((s) => s.viewingAs);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!viewingAs) return null;

  const leave = async () => {
    setBusy(true);
    setError(null);
    // Outside the shell (the error pages) there is no toast container: failures are said here.
    const toasts = hasFeedback();
    try {
      await exitViewAs(navigate);
      // The shell remounts with the own role: the toast shows once its App is there.
      withFeedback(({ message }) => {
        void message.success(translate('nav.returnedToRole'));
      });
    } catch (err) {
      if (!toasts) setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className={`view-as${className ? ` ${className}` : ''}`}>
      <Tag color="purple" className="viewing-as" data-testid="viewing-as">
        {t('nav.viewingAs', { name: viewingAs.name })}
      </Tag>
      <Button size="small" type="primary" ghost icon={<RollbackOutlined />} loading={busy} onClick={leave} data-testid="view-as-return">
        {t('nav.returnToRole')}
      </Button>
      {error ? (
        <span className="view-as-error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
