import { useMemo, useState } from 'react';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTOR_KINDS, AUDIT_CHANGES, AUDIT_EVENTS, AUDIT_OUTCOMES, type AuditRow } from '@app/contract/api/audit';
import { dateRangeFilter, ListPage, numberFilter, useListParams } from '../../components/list';
import { LazyRangePicker } from '../../components/LazyRangePicker';
import { RowActions } from '../../components/RowActions';
import { formatDateTime } from '../../lib/time';
import { useAuditRecordTypes, useAuditTrail } from './api';
import { AuditDetailDrawer } from './AuditDetailDrawer';
import { summaryOf } from './summary';
import './audit.css';

const FILTERS = ['actor', 'actor_kind', 'record_type', 'record_id', 'endpoint', 'change', 'outcome', 'event', 'from', 'to'] as const;
const CODECS = [numberFilter('record_id'), dateRangeFilter('days', 'from', 'to')];
const INSTANT = ['actor_kind', 'record_type', 'change', 'outcome', 'event', 'days'];
const KIND_COLOR = { admin: 'blue', institution: 'purple', anonymous: 'default' } as const;
const CHANGE_COLOR = { create: 'green', remove: 'red', read: 'geekblue' } as const;
const MAX_CHANGED = 4;

/**
 * /system/audit-log (grade 0, page AuditLog): every write, who did it, and what it changed; every sign-in
 * attempt and sign-out, read of one person's health data and export (the access audit), each with its
 * change and outcome, filtered by both.
 */
export default function AuditLogPage() {
  const { t } = useTranslation('audit');
  const params = useListParams({ filters: FILTERS });
  const query = useAuditTrail(params.query);
  const recordTypes = useAuditRecordTypes();
  const [viewId, setViewId] = useState<number | null>(null);

  const columns = useMemo<ColumnsType<AuditRow>>(
    () => [
      { key: 'created_at', dataIndex: 'created_at', title: t('col.time'), sorter: true, width: 180, render: (v: string) => formatDateTime(v) },
      {
        key: 'actor',
        title: t('col.actor'),
        render: (_, r) => (
          <span>
            <Tag color={KIND_COLOR[r.actor_kind]} variant="filled" className="audit-kind">
              {t(`actorKind.${r.actor_kind}`)}
            </Tag>
            {r.actor_name || '—'}
            {r.view_role_name ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {' '}
                ({t('viewAs', { role: r.view_role_name })})
              </Typography.Text>
            ) : null}
          </span>
        ),
      },
      {
        key: 'endpoint',
        dataIndex: 'endpoint',
        title: t('col.action'),
        render: (v: string, r) => {
          const summary = summaryOf(r, t);
          return (
            <Tooltip title={r.path}>
              {summary ? (
                <span data-testid="audit-summary">
                  {summary}
                  <br />
                  <Typography.Text type="secondary" className="mono" style={{ fontSize: 12 }}>
                    {v}
                  </Typography.Text>
                </span>
              ) : (
                <span className="mono">{v}</span>
              )}
            </Tooltip>
          );
        },
      },
      {
        key: 'record',
        title: t('col.record'),
        render: (_, r) =>
          r.record_type ? (
            <span className="mono">
              {r.record_type} #{r.record_id ?? '—'}
            </span>
          ) : (
            <span className="text-muted">—</span>
          ),
      },
      {
        key: 'changed',
        dataIndex: 'changed',
        title: t('col.changed'),
        render: (v: string[], r) =>
          r.change === 'create' || r.change === 'remove' || r.change === 'read' ? (
            <Tag color={CHANGE_COLOR[r.change]}>{t(`change.${r.change}`)}</Tag>
          ) : r.change === 'none' && r.event !== 'write' ? (
            <Tag>{t('change.none')}</Tag>
          ) : v.length ? (
            <span>
              {v.slice(0, MAX_CHANGED).map((f) => (
                <Tag key={f} className="mono">
                  {f}
                </Tag>
              ))}
              {v.length > MAX_CHANGED ? <Typography.Text type="secondary">+{v.length - MAX_CHANGED}</Typography.Text> : null}
            </span>
          ) : (
            <span className="text-muted">—</span>
          ),
      },
      {
        key: 'outcome',
        mobile: 'status',
        dataIndex: 'outcome',
        title: t('col.outcome'),
        render: (v: AuditRow['outcome'], r) => (
          <Tag color={v === 'ok' ? 'success' : 'error'} data-testid="audit-outcome">
            {t(`outcome.${v}`)}
            {r.reason && r.event === 'export' ? ` · ${t(`reason.${r.reason}`)}` : ''}
          </Tag>
        ),
      },
      { key: 'ip', dataIndex: 'ip', title: t('col.ip'), render: (v: string) => <span className="mono">{v || '—'}</span> },
      {
        key: 'actions',
        title: t('common:list.actions'),
        fixed: 'right',
        render: (_, r) => <RowActions actions={[{ key: 'view', label: t('action.view'), onClick: () => setViewId(r.id) }]} />,
      },
    ],
    [t],
  );

  return (
    <>
      <ListPage<AuditRow, (typeof FILTERS)[number]>
        listName="audit.list"
        onCardOpen={(r) => setViewId(r.id)}
        testId="audit-list"
        title={t('title')}
        params={params}
        query={query}
        columns={columns}
        rowKey="id"
        codecs={CODECS}
        instant={INSTANT}
        noDataText={t('noData')}
        filters={
          <>
            <Form.Item name="actor" label={t('filter.actor')}>
              <Input allowClear placeholder={t('filter.actorPlaceholder')} style={{ width: 160 }} data-testid="filter-actor" />
            </Form.Item>
            <Form.Item name="actor_kind" label={t('filter.actorKind')}>
              <Select
                allowClear
                placeholder={t('common:list.all')}
                style={{ width: 140 }}
                options={AUDIT_ACTOR_KINDS.map((k) => ({ value: k, label: t(`actorKind.${k}`) }))}
                data-testid="filter-actor-kind"
              />
            </Form.Item>
            <Form.Item name="record_type" label={t('filter.recordType')}>
              <Select
                allowClear
                placeholder={t('common:list.all')}
                style={{ width: 170 }}
                loading={recordTypes.isLoading}
                options={(recordTypes.data ?? []).map((v) => ({ value: v, label: v }))}
                data-testid="filter-record-type"
              />
            </Form.Item>
            <Form.Item name="record_id" label={t('filter.recordId')}>
              <InputNumber min={1} precision={0} style={{ width: 120 }} data-testid="filter-record-id" />
            </Form.Item>
            <Form.Item name="endpoint" label={t('filter.endpoint')}>
              <Input allowClear placeholder={t('filter.endpointPlaceholder')} style={{ width: 180 }} data-testid="filter-endpoint" />
            </Form.Item>
            <Form.Item name="change" label={t('filter.change')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 130 }} options={AUDIT_CHANGES.map((k) => ({ value: k, label: t(`change.${k}`) }))} data-testid="filter-change" />
            </Form.Item>
            <Form.Item name="outcome" label={t('filter.outcome')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 130 }} options={AUDIT_OUTCOMES.map((k) => ({ value: k, label: t(`outcome.${k}`) }))} data-testid="filter-outcome" />
            </Form.Item>
            <Form.Item name="event" label={t('filter.event')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 160 }} options={AUDIT_EVENTS.map((k) => ({ value: k, label: t(`event.${k}`) }))} data-testid="filter-event" />
            </Form.Item>
            <Form.Item name="days" label={t('filter.days')}>
              <LazyRangePicker allowEmpty={[true, true]} placeholder={[t('common:list.dateFrom'), t('common:list.dateTo')]} style={{ width: 260 }} />
            </Form.Item>
          </>
        }
      />
      <AuditDetailDrawer id={viewId} onClose={() => setViewId(null)} />
    </>
  );
}
