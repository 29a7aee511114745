import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type { DeviceRow } from '@app/contract/api/equipment';
import { CODE_LIMITS } from '@app/contract/api/codes';
import { FormModal } from '../../components/FormModal';
import { useEndpointMutation } from '../../components/list';
import { withFeedback } from '../../lib/feedback';
import { formatDateTime } from '../../lib/time';

/**
 * "Redeem code" on a device row (the owning institution only): a device code activates the device or
 * renews it (days from the later of now and its expiry; a count package adds its uses).
 */
export function RedeemCodeDialog({ device, onClose }: { device: DeviceRow | null; onClose: () => void }) {
  const { t } = useTranslation('equipment');
  const redeem = useEndpointMutation('codes.redeemDevice', { invalidate: ['equipment'], successMessage: false });
  return (
    <FormModal<{ code: string }>
      open={!!device}
      title={device ? t('redeem.title', { serial: device.serial }) : ''}
      onClose={onClose}
      okText={t('redeem.submit')}
      testId="device-redeem"
      onSubmit={async ({ code }) => {
        const answer = await redeem.mutateAsync({ id: device!.id, code });
        const parts = [
          answer.expires_at ? t('redeem.expires', { at: formatDateTime(answer.expires_at) }) : null,
          answer.remaining_uses != null ? t('redeem.uses', { n: answer.remaining_uses }) : null,
        ];
        withFeedback(({ message }) => {
          void message.success(`${t('redeem.done')} ${parts.filter(Boolean).join(' · ')}`);
        });
      }}
    >
      <Typography.Paragraph type="secondary">{t('redeem.help')}</Typography.Paragraph>
      <Form.Item name="code" label={t('redeem.code')} rules={[{ required: true, whitespace: true, message: t('redeem.required') }]} style={{ marginBottom: 0 }}>
        <Input className="mono" autoComplete="off" spellCheck={false} maxLength={CODE_LIMITS.inputLength} placeholder="XXXX-XXXX-XXXX-XXXX" data-testid="device-redeem-code" />
      </Form.Item>
    </FormModal>
  );
}
