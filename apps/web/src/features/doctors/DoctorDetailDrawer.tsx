import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Drawer from 'antd/es/drawer';
import Result from 'antd/es/result';
import Skeleton from 'antd/es/skeleton';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import EditOutlined from '@ant-design/icons/es/icons/EditOutlined';
import { useTranslation } from 'react-i18next';
import type { DoctorDetail } from '@app/contract/api/doctors';
import { Access } from '../../lib/access';
import { formatNumber } from '../../lib/money';
import { formatDateTime } from '../../lib/time';
import { useSettings } from '../../lib/settings';
import { useDoctorDetail } from './api';

/** GET /doctor/detail in a drawer: the full phone number is shown only here. */
export function DoctorDetailDrawer({ id, onClose, onEdit }: { id: number | null; onClose: () => void; onEdit: (d: DoctorDetail) => void }) {
  const { t } = useTranslation('doctors');
  const lang = useSettings((s) => s.lang);
  const { data, isError, refetch } = useDoctorDetail(id);
  const d = data && data.id === id ? data : undefined;

  return (
    <Drawer
      open={id != null}
      onClose={onClose}
      title={t('detail.title')}
      size={480}
      destroyOnHidden
      data-testid="doctor-detail"
      extra={
        d ? (
          <Access sign="doctor:edit">
            <Button icon={<EditOutlined />} onClick={() => onEdit(d)}>
              {t('action.edit')}
            </Button>
          </Access>
        ) : null
      }
    >
      {isError && !d ? (
        <Result status="warning" title={t('detail.loadFailed')} extra={<Button onClick={() => refetch()}>{t('common:list.retry')}</Button>} />
      ) : !d ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Descriptions column={1} bordered size="small" styles={{ label: { width: 140 } }}>
          <Descriptions.Item label={t('col.name')}>
            <Typography.Text strong>{d.name}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('col.gender')}>{t(`gender.${d.gender}`)}</Descriptions.Item>
          <Descriptions.Item label={t('col.phone')}>
            <Typography.Text copyable className="mono" data-testid="doctor-detail-phone">
              {d.phone}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('col.jobTitle')}>{d.title || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('col.institution')}>{d.institution_name ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('col.status')}>
            <Tag color={d.status === 'enabled' ? 'success' : 'default'}>{t(`status.${d.status}`)}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('col.inspections')}>{formatNumber(d.inspection_count, lang)}</Descriptions.Item>
          <Descriptions.Item label={t('col.createdAt')}>{formatDateTime(d.created_at)}</Descriptions.Item>
          <Descriptions.Item label={t('col.updatedAt')}>{formatDateTime(d.updated_at)}</Descriptions.Item>
        </Descriptions>
      )}
    </Drawer>
  );
}
