import { useId, useMemo, useState } from 'react';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Drawer from 'antd/es/drawer';
import Result from 'antd/es/result';
import Skeleton from 'antd/es/skeleton';
import Switch from 'antd/es/switch';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type { AuditDetail } from '@app/contract/api/audit';
import { formatDateTime } from '../../lib/time';
import { useAuditDetail } from './api';
import { diffLines, showValue, type DiffLine } from './diff';

/** One audit row: who, what, when, where, and the record before and after, changed fields first. */
export function AuditDetailDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation('audit');
  const { data, isError, refetch } = useAuditDetail(id);
  const d: AuditDetail | undefined = data && data.id === id ? data : undefined;
  const [changedOnly, setChangedOnly] = useState(true);
  const changedOnlyId = useId();
  const lines = useMemo(() => (d ? diffLines(d.before, d.after) : []), [d]);
  const shown = changedOnly ? lines.filter((l) => l.changed) : lines;
  const hasSnapshot = !!d && (d.before != null || d.after != null);

  return (
    <Drawer open={id != null} onClose={onClose} title={d ? t('detail.title', { id: d.id }) : t('title')} size={720} destroyOnHidden data-testid="audit-detail">
      {isError && !d ? (
        <Result status="warning" title={t('detail.loadFailed')} extra={<Button onClick={() => refetch()}>{t('common:list.retry')}</Button>} />
      ) : !d ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <>
          <Descriptions column={2} size="small" bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('col.time')}>{formatDateTime(d.created_at)}</Descriptions.Item>
            <Descriptions.Item label={t('col.actor')}>
              <Tag>{t(`actorKind.${d.actor_kind}`)}</Tag>
              {d.actor_name || '—'}
              {d.view_role_name ? <Typography.Text type="secondary"> ({t('viewAs', { role: d.view_role_name })})</Typography.Text> : null}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.action')}>
              <span className="mono">{d.endpoint}</span>{' '}
              <Typography.Text type="secondary" className="mono">
                {d.path}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('col.record')}>
              {d.record_type ? (
                <span className="mono">
                  {d.record_type} #{d.record_id ?? '—'}
                </span>
              ) : (
                '—'
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.ip')} span={2}>
              <span className="mono">{d.ip || '—'}</span>
            </Descriptions.Item>
          </Descriptions>
          {hasSnapshot ? (
            <>
              <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 8 }}>
                <span>
                  {d.before == null ? <Tag color="green">{t('detail.created')}</Tag> : null}
                  {d.after == null ? <Tag color="red">{t('detail.deleted')}</Tag> : null}
                </span>
                <label htmlFor={changedOnlyId} style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
                  <Switch id={changedOnlyId} size="small" checked={changedOnly} onChange={setChangedOnly} data-testid="audit-changed-only" />
                  {t('detail.changedOnly')}
                </label>
              </div>
              <Table<DiffLine>
                size="small"
                rowKey="field"
                pagination={false}
                dataSource={shown}
                data-testid="audit-diff"
                locale={{ emptyText: t('detail.unchanged') }}
                rowClassName={(l) => (l.changed ? 'audit-changed' : '')}
                columns={[
                  { key: 'field', dataIndex: 'field', title: t('detail.field'), width: 160, render: (v: string) => <span className="mono">{v}</span> },
                  { key: 'before', title: t('detail.before'), render: (_, l) => <span className={l.changed ? 'audit-before' : ''}>{showValue(l.before)}</span> },
                  { key: 'after', title: t('detail.after'), render: (_, l) => <span className={l.changed ? 'audit-after' : ''}>{showValue(l.after)}</span> },
                ]}
              />
            </>
          ) : (
            <>
              <Typography.Paragraph type="secondary">{t('detail.noSnapshot')}</Typography.Paragraph>
              <Typography.Title level={5}>{t('detail.input')}</Typography.Title>
              <pre className="mono audit-input">{JSON.stringify(d.input, null, 2)}</pre>
            </>
          )}
        </>
      )}
    </Drawer>
  );
}
