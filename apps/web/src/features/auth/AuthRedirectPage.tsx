/**
 * /auth-redirect: landing of a third-party sign-in. `?token=` (or `key`) with `id` and `kind`
 * (platform | institution, default platform) signs in and goes to ?redirect= or the landing page; a `?code=` in a
 * popup is handed back to the opener's login page.
 */
import { useEffect, useState } from 'react';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import Spin from 'antd/es/spin';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { sessionActions } from '../../lib/session';
import { safeRedirect } from '../../lib/landing';

export default function AuthRedirectPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const token = params.get('token') ?? params.get('key');
    const code = params.get('code');
    const redirect = params.get('redirect');
    const target = safeRedirect(redirect, '/');
    if (token) {
      sessionActions.setToken(token);
      const id = Number(params.get('id'));
      if (Number.isInteger(id) && id > 0) sessionActions.setIdentity(id, params.get('kind') !== 'institution');
      navigate(target, { replace: true });
      return;
    }
    if (code && window.opener && window.opener !== window) {
      try {
        window.opener.location.href = `${window.location.origin}/login?code=${encodeURIComponent(code)}`;
        window.close();
        return;
      } catch {
        // Cross-origin opener: fall through.
      }
    }
    setFailed(true);
  }, [params, navigate]);

  if (!failed) {
    return (
      <div className="full-page-spin" role="status">
        <Spin size="large" />
        <span className="full-page-spin-text">{t('pages.redirecting')}</span>
      </div>
    );
  }
  return (
    <div className="error-page">
      <Result
        status="warning"
        title={t('pages.authFailed')}
        extra={
          <Link to="/login">
            <Button type="primary">{t('pages.toLogin')}</Button>
          </Link>
        }
      />
    </div>
  );
}
