/**
 * /login: platform and institution sign-in (spec §2, §5, §7). The username is trimmed; a failed
 * sign-in shows the server's message. On success the guard sends the user to ?redirect= or home.
 * Kept light on purpose: only antd's Input is used (Form, Tabs, Button, Alert, Dropdown and App are
 * left to the shell), so the first page most visitors load stays small. The plain controls are styled
 * like antd's (styles.css, .login-*).
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
import LockOutlined from '@ant-design/icons/es/icons/LockOutlined';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LANGS, type Lang } from '@app/contract/i18n';
import { login, loginSecondFactor, type LoginKind } from '../../lib/auth';
import { isApiError } from '../../lib/api';
import { setLanguage } from '../../lib/i18n';
import { LANG_LABELS } from '../../lib/lang';
import { prefetchPageData, preloadSignedIn } from '../../lib/pages';
import { useSiteTitle } from '../../lib/site-title';
import { safeRedirect } from '../../lib/landing';
import { useSettings } from '../../lib/settings';

function LoginLang() {
  const { t } = useTranslation();
  const lang = useSettings((s) => s.lang);
  return (
    <fieldset className="login-langs" aria-label={t('nav.language')} data-testid="lang-picker">
      {LANGS.map((l: Lang) => (
        <button key={l} type="button" lang={l} className={`login-lang-btn${l === lang ? ' is-active' : ''}`} aria-pressed={l === lang} onClick={() => setLanguage(l)} data-testid={`lang-${l}`}>
          {LANG_LABELS[l]}
        </button>
      ))}
    </fieldset>
  );
}

const KINDS: LoginKind[] = ['platform', 'institution'];

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const location = useLocation();
  const id = useId();
  const [kind, setKind] = useState<LoginKind>('platform');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(() => (location.state as { error?: string } | null)?.error ?? null);
  const [busy, setBusy] = useState(false);
  // The second step (an account with two-step verification): the challenge the password answered, and
  // whether a code from the app or a recovery code is typed.
  const [challenge, setChallenge] = useState<string | null>(null);
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');

  const siteTitle = useSiteTitle();
  useEffect(() => {
    document.title = siteTitle;
  }, [siteTitle]);

  const userError = touched && !username.trim() ? t('usernameRequired') : null;
  const passError = touched && !password ? t('passwordRequired') : null;

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setTouched(true);
    if (!username.trim() || !password) return;
    setError(null);
    setBusy(true);
    // The shell and the page the user will land on download while the sign-in is checked; the page's
    // first call goes out with the new key, beside the user info.
    const target = safeRedirect(new URLSearchParams(window.location.search).get('redirect'), '/');
    preloadSignedIn(target);
    try {
      const answer = await login(kind, username, password);
      if ('mfa_required' in answer) {
        setChallenge(answer.challenge);
        setPassword('');
        setCode('');
        setTouched(false);
        setBusy(false);
        return;
      }
      prefetchPageData(target);
    } catch (err) {
      setError(isApiError(err) || err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };

  const codeError = touched && !code.trim() ? (useRecovery ? t('recoveryRequired') : t('codeRequired')) : null;
  const submitCode = async (ev: FormEvent) => {
    ev.preventDefault();
    setTouched(true);
    if (!challenge || !code.trim()) return;
    setError(null);
    setBusy(true);
    const target = safeRedirect(new URLSearchParams(window.location.search).get('redirect'), '/');
    try {
      await loginSecondFactor(kind, challenge, code);
      prefetchPageData(target);
    } catch (err) {
      setError(isApiError(err) || err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };
  const restart = () => {
    setChallenge(null);
    setUseRecovery(false);
    setCode('');
    setError(null);
    setTouched(false);
  };

  return (
    <div className="login-page">
      <header className="login-lang">
        <LoginLang />
      </header>
      <main className="login-main">
        <div className="login-brand">
          <img src="/favicon.svg" alt="" width={48} height={48} />
          <h1 className="login-title" data-testid="login-title">
            {siteTitle}
          </h1>
          <p className="login-subtitle">{t('subtitle')}</p>
        </div>
        <section className="login-card" aria-label={t('formLabel')}>
          {challenge ? null : (
            <div className="login-kind" role="tablist" aria-label={t('formLabel')}>
              {KINDS.map((k, i) => (
                <button
                  key={k}
                  type="button"
                  role="tab"
                  id={`${id}-tab-${k}`}
                  aria-selected={kind === k}
                  tabIndex={kind === k ? 0 : -1}
                  className={`login-kind-tab${kind === k ? ' is-active' : ''}`}
                  onClick={() => {
                    setKind(k);
                    setError(null);
                  }}
                  onKeyDown={(ev) => {
                    if (ev.key !== 'ArrowLeft' && ev.key !== 'ArrowRight') return;
                    const next = KINDS[(i + 1) % KINDS.length]!;
                    setKind(next);
                    document.getElementById(`${id}-tab-${next}`)?.focus();
                  }}
                  data-testid={`login-tab-${k}`}
                >
                  {k === 'platform' ? t('platformTab') : t('institutionTab')}
                </button>
              ))}
            </div>
          )}
          {error ? (
            <div className="login-error" role="alert" data-testid="login-error">
              <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden>
                <circle cx="8" cy="8" r="8" fill="currentColor" />
                <path d="M8 4v5M8 11.2v.8" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" />
              </svg>
              <span>{error}</span>
            </div>
          ) : null}
          {challenge ? (
            <form onSubmit={submitCode} noValidate data-testid="login-mfa-form" className="login-form" aria-labelledby={`${id}-mfa-title`}>
              <h2 id={`${id}-mfa-title`} className="login-step-title">
                {t('mfaTitle')}
              </h2>
              <p className="login-step-text">{useRecovery ? t('recoveryText') : t('mfaText')}</p>
              <div className="login-field">
                <label htmlFor={`${id}-code`}>{useRecovery ? t('recoveryLabel') : t('codeLabel')}</label>
                <Input
                  key={useRecovery ? 'recovery' : 'code'}
                  id={`${id}-code`}
                  size="large"
                  autoComplete="one-time-code"
                  inputMode={useRecovery ? 'text' : 'numeric'}
                  maxLength={useRecovery ? 24 : 6}
                  autoFocus
                  translate="no"
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  status={codeError ? 'error' : undefined}
                  aria-invalid={!!codeError}
                  aria-describedby={codeError ? `${id}-code-err` : undefined}
                  data-testid="login-mfa-code"
                />
                {codeError ? (
                  <div id={`${id}-code-err`} className="login-field-error">
                    {codeError}
                  </div>
                ) : null}
              </div>
              <button type="submit" className="login-submit" disabled={busy} aria-busy={busy} data-testid="login-mfa-submit">
                {busy ? <span className="login-submit-spinner" aria-hidden /> : null}
                {t('verify')}
              </button>
              <div className="login-step-links">
                <button
                  type="button"
                  className="login-link"
                  onClick={() => {
                    setUseRecovery(!useRecovery);
                    setCode('');
                    setError(null);
                    setTouched(false);
                  }}
                  data-testid="login-mfa-switch"
                >
                  {useRecovery ? t('useCode') : t('useRecovery')}
                </button>
                <button type="button" className="login-link" onClick={restart} data-testid="login-mfa-back">
                  {t('back')}
                </button>
              </div>
            </form>
          ) : (
            <form onSubmit={submit} noValidate data-testid="login-form" className="login-form" role="tabpanel" aria-labelledby={`${id}-tab-${kind}`}>
              <div className="login-field">
                <label htmlFor={`${id}-user`}>{t('username')}</label>
                <Input
                  id={`${id}-user`}
                  size="large"
                  prefix={<UserOutlined />}
                  placeholder={t('usernamePlaceholder')}
                  autoComplete="username"
                  autoFocus
                  value={username}
                  onChange={(e) => setUsername(e.target.value)}
                  status={userError ? 'error' : undefined}
                  aria-invalid={!!userError}
                  aria-describedby={userError ? `${id}-user-err` : undefined}
                  data-testid="login-username"
                />
                {userError ? (
                  <div id={`${id}-user-err`} className="login-field-error">
                    {userError}
                  </div>
                ) : null}
              </div>
              <div className="login-field">
                <label htmlFor={`${id}-pass`}>{t('password')}</label>
                <Password
                  id={`${id}-pass`}
                  size="large"
                  prefix={<LockOutlined />}
                  placeholder={t('passwordPlaceholder')}
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  status={passError ? 'error' : undefined}
                  aria-invalid={!!passError}
                  aria-describedby={passError ? `${id}-pass-err` : undefined}
                  data-testid="login-password"
                />
                {passError ? (
                  <div id={`${id}-pass-err`} className="login-field-error">
                    {passError}
                  </div>
                ) : null}
              </div>
              <button type="submit" className="login-submit" disabled={busy} aria-busy={busy} data-testid="login-submit">
                {busy ? <span className="login-submit-spinner" aria-hidden /> : null}
                {t('submit')}
              </button>
            </form>
          )}
        </section>
        <footer className="login-footer">{t('footer')}</footer>
      </main>
    </div>
  );
}
