import { useState } from 'react';
import App from 'antd/es/app';
import Alert from 'antd/es/alert';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import { useTranslation } from 'react-i18next';
import { INSTITUTION_LIMITS, type InstitutionRow } from '@app/contract/api/institutions';
import { FormModal } from '../../components/FormModal';
import { useResetInstitutionPassword } from './api';
import { PasswordOnce } from './parts';

interface Values {
  how: 'generate' | 'set';
  password?: string;
  confirm?: string;
}

/** A new password for an institution's login: generated (shown once) or typed; its sessions end. */
export function ResetPasswordDialog({ row, onClose }: { row: InstitutionRow | null; onClose: () => void }) {
  const { t } = useTranslation('institutions');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const how = Form.useWatch('how', form);
  const reset = useResetInstitutionPassword();
  const [shown, setShown] = useState<{ username: string; password: string; title: string } | null>(null);

  const submit = async (v: Values) => {
    const res = await reset.mutateAsync({ id: row!.id, password: v.how === 'set' ? v.password : undefined });
    if (res.password) setShown({ username: row!.username, password: res.password, title: t('once.resetTitle', { name: row!.name }) });
    else void message.success(t('passwordSet'));
  };

  return (
    <>
      <FormModal<Values>
        open={!!row}
        form={form}
        title={t('reset.title', { name: row?.name ?? '' })}
        initialValues={{ how: 'generate' }}
        onClose={onClose}
        onSubmit={submit}
        okText={t('action.resetPassword')}
        width={480}
        testId="institution-reset"
      >
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('reset.warning')} />
        <Form.Item name="how">
          <Radio.Group
            options={[
              { value: 'generate', label: t('reset.generate') },
              { value: 'set', label: t('reset.set') },
            ]}
          />
        </Form.Item>
        {how === 'set' ? (
          <>
            <Form.Item name="password" label={t('reset.newPassword')} rules={[{ required: true, whitespace: true, message: t('reset.required') }, { max: INSTITUTION_LIMITS.passwordMax }]}>
              <Input.Password autoComplete="new-password" data-testid="institution-reset-password" />
            </Form.Item>
            <Form.Item
              name="confirm"
              label={t('reset.confirm')}
              dependencies={['password']}
              rules={[
                { required: true, message: t('reset.required') },
                ({ getFieldValue }) => ({ validator: (_, value) => (!value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('reset.mismatch')))) }),
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </>
        ) : null}
      </FormModal>
      <PasswordOnce shown={shown} onClose={() => setShown(null)} />
    </>
  );
}
