import Alert from 'antd/es/alert';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { useTranslation } from 'react-i18next';
import type { AdminRow } from '@app/contract/api/jurisdiction';
import { FormModal } from '../../components';
import { isApiError } from '../../lib/api';
import { useResetAdminPassword } from './api';
import { confirmRules, passwordRules } from './passwords';

interface Values {
  password: string;
  confirm: string;
}

/** Reset another admin's password (POST /member/modify_field field password); the user is signed out everywhere. */
export function ResetPasswordDialog({ user, onClose }: { user: AdminRow | null; onClose: () => void }) {
  const { t } = useTranslation('jurisdiction');
  const [form] = Form.useForm<Values>();
  const reset = useResetAdminPassword(t('admin.passwordReset'));

  const submit = async (v: Values) => {
    try {
      await reset.mutateAsync({ id: user!.id, field: 'password', value: v.password });
    } catch (err) {
      // The password rules (empty, too short) answer without a field name: show the message at the field.
      if (isApiError(err) && err.kind === 'business' && !Object.keys(err.fields).length) form.setFields([{ name: 'password', errors: [err.message] }]);
      throw err;
    }
  };

  return (
    <FormModal<Values>
      open={!!user}
      title={t('admin.resetTitle', { name: user?.username ?? '' })}
      form={form}
      onClose={onClose}
      onSubmit={submit}
      okText={t('admin.resetPassword')}
      width={460}
      testId="reset-password"
    >
      <Alert type="warning" showIcon className="jur-form-alert" title={t('admin.resetHint')} />
      <Form.Item name="password" label={t('admin.form.newPassword')} rules={passwordRules(t)} hasFeedback>
        <Input.Password autoComplete="new-password" data-testid="reset-password-value" />
      </Form.Item>
      <Form.Item name="confirm" label={t('admin.form.confirm')} dependencies={['password']} rules={confirmRules(t, 'password')} hasFeedback>
        <Input.Password autoComplete="new-password" data-testid="reset-password-confirm" />
      </Form.Item>
    </FormModal>
  );
}
