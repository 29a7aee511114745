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
import { summaryOf } from './summary';

/**
 * One audit row: who, what, when, where, with which outcome, and the record before and after (changed
 * fields first); for an access row (sign-in, sign-out, read, export, refusal) what happened in words,
 * the browser, an export's rows, and its input (an export's filters).
 */
export function AuditDetailDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation('audit');
  const { data, isError, refetch } = useAuditDetail(id);
  const d: AuditDetail | undefined = data && data.id === id ? data : undefined;
  const [changedOnly, setChangedOnly] = useState(true);
  const changedOnlyId = useId();
  const lines = useMemo(() => (d ? diffLines(d.before, d.after) : []), [d]);
  const shown = changedOnly ? lines.filter((l) => l.changed) : lines;
  const hasSnapshot = !!d && (d.before != null || d.after != null);
  const summary = d ? summaryOf(d, t) : null;
  const suppressed = (d?.input as { suppressed?: unknown } | null)?.suppressed;

  return (
    <Drawer open={id != null} onClose={onClose} title={d ? t('detail.title', { id: d.id }) : t('title')} size={720} destroyOnHidden data-testid="audit-detail">
      {isError && !d ? (
        <Result status="warning" title={t('detail.loadFailed')} extra={<Button onClick={() => refetch()}>{t('common:list.retry')}</Button>} />
      ) : !d ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <>
          <Descriptions column={{ xs: 1, sm: 2 }} size="small" bordered style={{ marginBottom: 16 }}>
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
            <Descriptions.Item label={t('detail.event')}>{t(`event.${d.event}`)}</Descriptions.Item>
            <Descriptions.Item label={t('detail.outcome')}>
              <Tag color={d.outcome === 'ok' ? 'success' : 'error'}>{t(`outcome.${d.outcome}`)}</Tag>
              {d.reason ? t(`reason.${d.reason}`) : null}
            </Descriptions.Item>
            {summary ? (
              <Descriptions.Item label={t('detail.what')} span={2}>
                <span data-testid="audit-detail-summary">{summary}</span>
                {typeof suppressed === 'number' ? <Typography.Text type="secondary"> ({t('detail.suppressed', { count: suppressed })})</Typography.Text> : null}
              </Descriptions.Item>
            ) : null}
            {d.event === 'export' ? (
              <Descriptions.Item label={t('detail.rows')} span={2}>
                {d.rows ?? '—'}
              </Descriptions.Item>
            ) : null}
            <Descriptions.Item label={t('col.ip')} span={2}>
              <span className="mono">{d.ip || '—'}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('detail.userAgent')} span={2}>
              <span className="mono">{d.user_agent || '—'}</span>
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
              {d.event === 'write' ? <Typography.Paragraph type="secondary">{t('detail.noSnapshot')}</Typography.Paragraph> : null}
              <Typography.Title level={5}>{t(d.event === 'export' ? 'detail.filters' : 'detail.input')}</Typography.Title>
              <pre className="mono audit-input">{JSON.stringify(d.input, null, 2)}</pre>
            </>
          )}
        </>
      )}
    </Drawer>
  );
}
