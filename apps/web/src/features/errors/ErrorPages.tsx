import { useEffect } from 'react';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import Space from 'antd/es/space';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ViewAsReturn } from '../../components/ViewAsReturn';
import { loadUserInfo } from '../../lib/auth';
import { useSession } from '../../lib/session';

/**
 * Whether the signed-in user views as another role: the 401/404 pages live outside the shell, so after
 * a refresh on them user info is not loaded yet; load it (quietly) to offer the way back.
 */
function useViewingAs(): boolean {
  const token = useSession((s) => s.token);
  const loaded = useSession((s) => s.roles.length > 0);
  useEffect(() => {
    if (token && !loaded) loadUserInfo().catch(() => undefined);
  }, [token, loaded]);
  return useSession((s) => !!s.viewingAs);
}

function ErrorPage({ status, title, text, testId }: { status: '404' | '403'; title: string; text: string; testId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const viewing = useViewingAs();
  return (
    <main className="error-page" data-testid={testId}>
      <Result
        status={status}
        title={title}
        subTitle={text}
        extra={
          <>
            {/* A role viewed as may have no page at all: the way back is here too. */}
            {viewing ? (
              <div className="error-page-view-as">
                <ViewAsReturn />
              </div>
            ) : null}
            <Space wrap>
              <Button type="primary" onClick={() => navigate('/', { replace: true })} data-testid="back-home">
                {t('pages.backHome')}
              </Button>
              <Button onClick={() => navigate(-1)}>{t('pages.goBack')}</Button>
            </Space>
          </>
        }
      />
    </main>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return <ErrorPage status="404" title={t('pages.notFoundTitle')} text={t('pages.notFoundText')} testId="page-404" />;
}

export function ForbiddenPage() {
  const { t } = useTranslation();
  return <ErrorPage status="403" title={t('pages.forbiddenTitle')} text={t('pages.forbiddenText')} testId="page-401" />;
}
