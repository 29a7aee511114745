/**
 * The Security page's "Two-step verification" card (trust-api.md, "Second factor"): the status; set up
 * (the otpauth URL as a QR code with the secret as text beside it, then a first code to confirm), the ten
 * recovery codes shown once (copy, download as .txt); regenerate them or turn the factor off, each with a
 * current code. Refusals are shown in place. An admin whose session was restricted for want of a factor
 * (`mfa_required_admins`) continues to the console once it is on.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import Alert from 'antd/es/alert';
import App from 'antd/es/app';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Flex from 'antd/es/flex';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import QRCode from 'antd/es/qr-code';
import Skeleton from 'antd/es/skeleton';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import SafetyOutlined from '@ant-design/icons/es/icons/SafetyOutlined';
import { useTranslation } from 'react-i18next';
import type { MfaSetupAnswer } from '@app/contract/api/mfa';
import { loadUserInfo } from '../../lib/auth';
import { useSession } from '../../lib/session';
import { mfaCall, useMfaStatus, useRefreshMfa } from './api';

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A field for a 6-digit code from an authenticator app (or, where allowed, a recovery code). */
function CodeField({ id, value, onChange, label, allowRecovery, testId }: { id: string; value: string; onChange: (v: string) => void; label: string; allowRecovery?: boolean; testId: string }) {
  return (
    <div className="account-mfa-field">
      <label htmlFor={id}>{label}</label>
      <Input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        inputMode={allowRecovery ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        maxLength={allowRecovery ? 24 : 6}
        className="account-mfa-code"
        data-testid={testId}
        translate="no"
      />
    </div>
  );
}

/** The recovery codes, shown once, with copy and download. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const text = `${codes.join('\r\n')}\r\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      void message.success(t('mfa.copied'));
    } catch {
      void message.error(t('mfa.copyFailed'));
    }
  };
  const download = () => {
    const href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = href;
    link.download = 'recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(href), 30_000);
  };
  return (
    <div data-testid="mfa-recovery">
      <Alert type="warning" showIcon title={t('mfa.recoveryTitle')} description={t('mfa.recoveryWarning')} className="account-mfa-alert" />
      <ol className="account-mfa-codes" aria-label={t('mfa.recoveryTitle')} data-testid="mfa-recovery-codes" translate="no">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <Flex gap={8} wrap>
        <Button onClick={copy} data-testid="mfa-recovery-copy">
          {t('mfa.copy')}
        </Button>
        <Button onClick={download} data-testid="mfa-recovery-download">
          {t('mfa.download')}
        </Button>
        <Button type="primary" onClick={onDone} data-testid="mfa-recovery-done">
          {t('mfa.saved')}
        </Button>
      </Flex>
    </div>
  );
}

type Ask = 'disable' | 'regenerate' | null;

export function MfaCard() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const status = useMfaStatus();
  const refresh = useRefreshMfa();
  const restricted = useSession((s) => s.mfaSetupRequired);
  const [setup, setSetup] = useState<MfaSetupAnswer | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [ask, setAsk] = useState<Ask>(null);
  const [askCode, setAskCode] = useState('');
  const [askError, setAskError] = useState<string | null>(null);

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      setSetup(await mfaCall('mfa.setup', {}));
      setCode('');
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const confirm = async (ev: FormEvent) => {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await mfaCall('mfa.enable', { code });
      setCodes(answer.recovery_codes);
      setSetup(null);
      await refresh();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const done = async () => {
    setCodes(null);
    if (restricted) {
      // The session regained full access when the factor was enabled: reload the account, then the console.
      useSession.setState({ mfaSetupRequired: false });
      await loadUserInfo().catch(() => undefined);
      navigate('/', { replace: true });
    }
  };

  const submitAsk = async (ev?: FormEvent) => {
    ev?.preventDefault();
    setBusy(true);
    setAskError(null);
    try {
      if (ask === 'disable') await mfaCall('mfa.disable', { code: askCode });
      else setCodes((await mfaCall('mfa.recoveryCodes', { code: askCode })).recovery_codes);
      setAsk(null);
      await refresh();
    } catch (err) {
      setAskError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const openAsk = (which: Ask) => {
    setAsk(which);
    setAskCode('');
    setAskError(null);
  };

  const s = status.data;
  return (
    <Card
      title={
        <h3 className="account-card-title">
          <SafetyOutlined aria-hidden /> {t('mfa.title')}
        </h3>
      }
      className="account-card"
      data-testid="mfa-card"
      extra={
        s ? (
          <Tag color={s.enabled ? 'green' : 'default'} data-testid="mfa-state">
            {s.enabled ? t('mfa.on') : t('mfa.off')}
          </Tag>
        ) : null
      }
    >
      {restricted ? <Alert type="info" showIcon title={t('mfa.requiredTitle')} description={t('mfa.requiredText')} className="account-mfa-alert" data-testid="mfa-required" /> : null}
      {!s ? (
        <Skeleton active />
      ) : codes ? (
        <RecoveryCodes codes={codes} onDone={done} />
      ) : setup ? (
        <form onSubmit={confirm} data-testid="mfa-setup-form">
          <Typography.Paragraph>{t('mfa.scan')}</Typography.Paragraph>
          <Flex gap={24} wrap align="center">
            <QRCode value={setup.otpauth_url} size={176} role="img" aria-label={t('mfa.qrLabel')} data-testid="mfa-qr" />
            <div>
              <Typography.Text type="secondary">{t('mfa.secretLabel')}</Typography.Text>
              <div>
                <Typography.Text code copyable={{ text: setup.secret, tooltips: [t('mfa.copy'), t('mfa.copied')] }} data-testid="mfa-secret" translate="no">
                  {setup.secret}
                </Typography.Text>
              </div>
            </div>
          </Flex>
          <CodeField id="mfa-enable-code" value={code} onChange={setCode} label={t('mfa.firstCode')} testId="mfa-enable-code" />
          {error ? <Alert type="error" showIcon title={error} className="account-mfa-alert" role="alert" data-testid="mfa-error" /> : null}
          <Flex gap={8}>
            <Button type="primary" htmlType="submit" loading={busy} data-testid="mfa-enable-submit">
              {t('mfa.confirm')}
            </Button>
            <Button onClick={() => setSetup(null)}>{t('cancel')}</Button>
          </Flex>
        </form>
      ) : s.enabled ? (
        <Flex justify="space-between" align="center" gap={12} wrap>
          <Typography.Text type="secondary" data-testid="mfa-left">
            {t('mfa.onText', { count: s.recovery_codes_left })}
          </Typography.Text>
          <Flex gap={8} wrap>
            <Button onClick={() => openAsk('regenerate')} data-testid="mfa-regenerate">
              {t('mfa.regenerate')}
            </Button>
            <Button danger onClick={() => openAsk('disable')} data-testid="mfa-disable">
              {t('mfa.disable')}
            </Button>
          </Flex>
        </Flex>
      ) : (
        <Flex justify="space-between" align="center" gap={12} wrap>
          <Typography.Text type="secondary">{t('mfa.offText')}</Typography.Text>
          <Button type="primary" loading={busy} onClick={start} data-testid="mfa-setup">
            {t('mfa.setup')}
          </Button>
          {error ? <Alert type="error" showIcon title={error} role="alert" data-testid="mfa-error" /> : null}
        </Flex>
      )}
      <Modal
        open={ask !== null}
        title={ask === 'disable' ? t('mfa.disableTitle') : t('mfa.regenerateTitle')}
        okText={ask === 'disable' ? t('mfa.disable') : t('mfa.regenerate')}
        okButtonProps={{ danger: ask === 'disable', loading: busy, 'data-testid': 'mfa-ask-ok' }}
        cancelText={t('cancel')}
        onOk={() => submitAsk()}
        onCancel={() => setAsk(null)}
        destroyOnHidden
      >
        <form onSubmit={submitAsk}>
          <Typography.Paragraph type="secondary">{ask === 'disable' ? t('mfa.disableText') : t('mfa.regenerateText')}</Typography.Paragraph>
          <CodeField
            id="mfa-ask-code"
            value={askCode}
            onChange={setAskCode}
            label={ask === 'disable' ? t('mfa.codeOrRecovery') : t('mfa.currentCode')}
            allowRecovery={ask === 'disable'}
            testId="mfa-ask-code"
          />
          {askError ? <Alert type="error" showIcon title={askError} role="alert" data-testid="mfa-ask-error" /> : null}
        </form>
      </Modal>
    </Card>
  );
}
