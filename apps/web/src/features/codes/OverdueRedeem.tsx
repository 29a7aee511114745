import { useState } from 'react';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Result from 'antd/es/result';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CODE_LIMITS } from '@app/contract/api/codes';
import { findRoute } from '@app/contract/routes';
import { applyServerErrors } from '../../components/FormModal';
import { call } from '../../lib/api';
import { useSession } from '../../lib/session';
import { formatDateTime } from '../../lib/time';

const HOME = findRoute('DeviceList')?.path ?? '/';

/**
 * The overdue notice's way out (spec §4, "renewal by institution code"): paste a code, redeem it with
 * the session's (restricted) key, see the new term, and go on to the device list. The server turned the
 * restricted session into a full one in the same call, so no new sign-in is needed.
 */
export default function OverdueRedeem() {
  const { t } = useTranslation('codes');
  const [form] = Form.useForm<{ code: string }>();
  const [saving, setSaving] = useState(false);
  const [term, setTerm] = useState<string | null>(null);
  const navigate = useNavigate();
  const qc = useQueryClient();

  const carryOn = () => {
    useSession.setState({ showOverdue: false, termExpiresAt: term });
    // Everything answered 998 while overdue: ask again with the renewed session.
    void qc.resetQueries();
    navigate(HOME);
  };

  if (term) {
    return (
      <Result
        status="success"
        title={t('overdue.renewedTitle')}
        subTitle={<span data-testid="overdue-new-term">{t('overdue.renewedText', { term: formatDateTime(term) })}</span>}
        style={{ padding: '12px 0 0' }}
        extra={
          <Button type="primary" onClick={carryOn} data-testid="overdue-continue">
            {t('overdue.continue')}
          </Button>
        }
      />
    );
  }

  const submit = async ({ code }: { code: string }) => {
    setSaving(true);
    try {
      const answer = await call('codes.redeemInstitution', { code }, { silent: true });
      setTerm(answer.term_expires_at);
    } catch (err) {
      const text = err instanceof Error ? err.message : '';
      applyServerErrors(form, err);
      if (!form.getFieldError('code').length && text) form.setFields([{ name: 'code', errors: [text] }]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} layout="inline" onFinish={submit} style={{ marginTop: 12 }} data-testid="overdue-redeem">
      <Flex gap={8} wrap align="start">
        <Form.Item name="code" label={t('overdue.label')} rules={[{ required: true, whitespace: true, message: t('overdue.required') }]} style={{ marginInlineEnd: 0 }}>
          <Input className="mono" autoComplete="off" spellCheck={false} maxLength={CODE_LIMITS.inputLength} placeholder={t('overdue.placeholder')} style={{ width: 240 }} data-testid="overdue-code" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="overdue-redeem-submit">
          {t('overdue.submit')}
        </Button>
      </Flex>
    </Form>
  );
}
