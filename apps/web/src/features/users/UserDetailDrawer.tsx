import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Drawer from 'antd/es/drawer';
import Flex from 'antd/es/flex';
import Result from 'antd/es/result';
import Skeleton from 'antd/es/skeleton';
import Typography from 'antd/es/typography';
import EditOutlined from '@ant-design/icons/es/icons/EditOutlined';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { findRoute } from '@app/contract/routes';
import type { UserDetail, UserRow } from '@app/contract/api/users';
import { RelativeTime } from '../../components/RelativeTime';
import { Access, useAccessModel } from '../../lib/access';
import { formatNumber } from '../../lib/money';
import { formatDateTime } from '../../lib/time';
import { useSettings } from '../../lib/settings';
import { useUserDetail } from './api';
import { ageFrom, bmi } from './person';

const dash = <span className="text-muted">—</span>;
const INSPECTIONS = findRoute('InspectionList');

/** GET /user/detail (button user:detail) in a drawer: phone and ID number in full, only here. */
export function UserDetailDrawer({ id, onClose, onEdit }: { id: number | null; onClose: () => void; onEdit: (u: UserRow) => void }) {
  const { t } = useTranslation('users');
  const lang = useSettings((s) => s.lang);
  const { data, isError, refetch } = useUserDetail(id);
  const access = useAccessModel();
  const history = INSPECTIONS && access.canOpen(INSPECTIONS) ? INSPECTIONS.path : null;
  const u: UserDetail | undefined = data && data.id === id ? data : undefined;
  const age = u ? ageFrom(u.birth_date) : null;
  const index = u ? bmi(u.height_cm, u.weight_kg) : null;
  const num = (v: number | null, unit: 'cm' | 'kg') => (v == null ? dash : t(`unit.${unit}`, { v: formatNumber(v, lang) }));

  return (
    <Drawer
      open={id != null}
      onClose={onClose}
      title={t('detail.title')}
      size={520}
      destroyOnHidden
      data-testid="user-detail"
      extra={
        u ? (
          <Access sign="user:edit">
            <Button icon={<EditOutlined />} onClick={() => onEdit(u)}>
              {t('action.edit')}
            </Button>
          </Access>
        ) : null
      }
    >
      {isError && !u ? (
        <Result status="warning" title={t('detail.loadFailed')} extra={<Button onClick={() => refetch()}>{t('common:list.retry')}</Button>} />
      ) : !u ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : (
        <Flex vertical gap={20}>
          <Descriptions title={t('detail.personal')} column={1} bordered size="small" styles={{ label: { width: 150 } }}>
            <Descriptions.Item label={t('col.name')}>
              <Typography.Text strong>{u.name}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('col.gender')}>{t(`gender.${u.gender}`)}</Descriptions.Item>
            <Descriptions.Item label={t('col.birthDate')}>
              {u.birth_date ? (
                <>
                  {u.birth_date}
                  {age != null ? <Typography.Text type="secondary">{` · ${t('col.age')} ${formatNumber(age, lang)}`}</Typography.Text> : null}
                </>
              ) : (
                dash
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.phone')}>
              {u.phone ? (
                <Typography.Text copyable className="mono" data-testid="user-detail-phone">
                  {u.phone}
                </Typography.Text>
              ) : (
                dash
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.idNumber')}>
              {u.id_number ? (
                <Typography.Text copyable className="mono" data-testid="user-detail-id-number">
                  {u.id_number}
                </Typography.Text>
              ) : (
                dash
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.institution')}>{u.institution_name ?? dash}</Descriptions.Item>
          </Descriptions>
          <Descriptions title={t('detail.body')} column={1} bordered size="small" styles={{ label: { width: 150 } }}>
            <Descriptions.Item label={t('col.height')}>{num(u.height_cm, 'cm')}</Descriptions.Item>
            <Descriptions.Item label={t('col.weight')}>{num(u.weight_kg, 'kg')}</Descriptions.Item>
            <Descriptions.Item label={t('col.bmi')}>{index == null ? dash : formatNumber(index, lang)}</Descriptions.Item>
          </Descriptions>
          <Descriptions title={t('detail.activity')} column={1} bordered size="small" styles={{ label: { width: 150 } }}>
            <Descriptions.Item label={t('inspectionHistory')}>
              {history && u.inspection_count > 0 ? (
                <Link to={`${history}?user_id=${u.id}`} data-testid="user-detail-inspections">
                  {formatNumber(u.inspection_count, lang)}
                </Link>
              ) : (
                <span data-testid="user-detail-inspections">{formatNumber(u.inspection_count, lang)}</span>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.lastInspection')}>
              {u.last_inspection_at ? (
                <>
                  {formatDateTime(u.last_inspection_at)}{' '}
                  <Typography.Text type="secondary">
                    (<RelativeTime value={u.last_inspection_at} />)
                  </Typography.Text>
                </>
              ) : (
                <span className="text-muted">{t('never')}</span>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.createdAt')}>{formatDateTime(u.created_at)}</Descriptions.Item>
            <Descriptions.Item label={t('col.updatedAt')}>{formatDateTime(u.updated_at)}</Descriptions.Item>
          </Descriptions>
        </Flex>
      )}
    </Drawer>
  );
}
