import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Drawer from 'antd/es/drawer';
import Result from 'antd/es/result';
import Skeleton from 'antd/es/skeleton';
import Statistic from 'antd/es/statistic';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import Flex from 'antd/es/flex';
import EditOutlined from '@ant-design/icons/es/icons/EditOutlined';
import { useTranslation } from 'react-i18next';
import type { InstitutionRow } from '@app/contract/api/institutions';
import { RegionName } from '../../components/RegionName';
import { Access } from '../../lib/access';
import { formatDateTime } from '../../lib/time';
import { useInstitutionDetail } from './api';
import { GradeTag, TermText } from './parts';

/** GET /institution/detail in a drawer: the record and its subtree's counts. */
export function InstitutionDetailDrawer({ id, onClose, onEdit }: { id: number | null; onClose: () => void; onEdit: (r: InstitutionRow) => void }) {
  const { t } = useTranslation('institutions');
  const { data, isError, refetch } = useInstitutionDetail(id);
  const d = data && data.id === id ? data : undefined;

  return (
    <Drawer
      open={id != null}
      onClose={onClose}
      title={t('detail.title')}
      size={520}
      destroyOnHidden
      data-testid="institution-detail"
      extra={
        d ? (
          <Access sign="institution:edit">
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
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : (
        <Flex vertical gap={16}>
          <Flex gap={16} wrap justify="space-between" data-testid="institution-counts">
            <Statistic title={t('detail.children')} value={d.counts.children} />
            <Statistic title={t('detail.descendants')} value={d.counts.descendants} />
            <Statistic title={t('detail.devices')} value={d.counts.devices} />
            <Statistic title={t('detail.openPayouts')} value={d.counts.open_payouts} />
          </Flex>
          <Descriptions column={1} bordered size="small" styles={{ label: { width: 130 } }}>
            <Descriptions.Item label={t('col.name')}>
              <Typography.Text strong>{d.name}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('col.grade')}>
              <GradeTag grade={d.grade} />
            </Descriptions.Item>
            <Descriptions.Item label={t('col.username')}>
              <span className="mono">{d.username}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('col.parent')}>{d.parent_name ?? t('detail.noParent')}</Descriptions.Item>
            <Descriptions.Item label={t('col.contactName')}>{d.contact_name}</Descriptions.Item>
            <Descriptions.Item label={t('col.phone')}>
              <Typography.Text copyable className="mono">
                {d.phone}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('col.region')}>
              <RegionName codes={d.region} />
            </Descriptions.Item>
            <Descriptions.Item label={t('col.address')}>{d.address || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('col.status')}>
              <Tag color={d.status === 'enabled' ? 'success' : 'default'}>{t(`statusName.${d.status}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('col.term')}>
              <TermText row={d} />
            </Descriptions.Item>
            <Descriptions.Item label={t('col.createdAt')}>{formatDateTime(d.created_at)}</Descriptions.Item>
          </Descriptions>
        </Flex>
      )}
    </Drawer>
  );
}
