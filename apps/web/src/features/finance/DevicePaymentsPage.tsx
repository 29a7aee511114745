import Button from 'antd/es/button';
import ArrowLeftOutlined from '@ant-design/icons/es/icons/ArrowLeftOutlined';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePayments } from './api';
import { PaymentsList } from './PaymentsList';

/** /dashboard/device-end-record/:id (hidden, grades 0-3, scoped): the payments of one device. */
export default function DevicePaymentsPage() {
  const { t } = useTranslation('finance');
  const navigate = useNavigate();
  const id = Number(useParams().id);
  // The serial for the title: the newest payment carries it (the same query the list makes first).
  const first = usePayments({ device_id: id, limit: 1 });
  const serial = first.data?.list[0]?.device_serial ?? `#${id}`;
  return (
    <PaymentsList
      key={id}
      deviceId={id}
      title={
        <span>
          <Button type="link" icon={<ArrowLeftOutlined />} onClick={() => navigate('/dashboard/index')} data-testid="device-payments-back" />
          <span data-testid="device-payments-title">{t('deviceTitle', { serial })}</span>
        </span>
      }
    />
  );
}
