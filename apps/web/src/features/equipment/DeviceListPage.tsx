import { useMemo, useState } from 'react';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Form from 'antd/es/form';
import Badge from 'antd/es/badge';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import Tag from 'antd/es/tag';
import type { ColumnsType } from 'antd/es/table';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { canOpenRoute } from '@app/contract/access';
import { findRoute } from '@app/contract/routes';
import { DEVICE_STATUSES, type DeviceRow, type DeviceStatus } from '@app/contract/api/equipment';
import { EXPIRING_DAYS } from '@app/contract/constants';
import { boolFilter, BulkBar, dateRangeFilter, ListPage, numberFilter, useBulkReport, useListParams, KeywordFilter } from '../../components/list';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { LazyRangePicker } from '../../components/LazyRangePicker';
import { RelativeTime } from '../../components/RelativeTime';
import { RowActions } from '../../components/RowActions';
import { formatDateTime } from '../../lib/time';
import { formatNumber } from '../../lib/money';
import { useAccess } from '../../lib/access';
import { useSession } from '../../lib/session';
import { useSettings } from '../../lib/settings';
import { useBulkDeviceStatus, useDevices, useDeviceStatus, useResetSecret } from './api';
import { DEVICE_LIST_PARAMS } from './list';
import { AddDeviceDialog, DistributeDialog, EditDeviceDialog, ImportDialog, SecretDialog } from './DeviceDialogs';
import { RedeemCodeDialog } from './RedeemCodeDialog';
import { ExportButton } from '../../components/ExportButton';

const CODECS = [numberFilter('institution_id'), dateRangeFilter('expires', 'expires_from', 'expires_to'), boolFilter('expiring')];
const INSTANT = ['status', 'institution_id', 'expires', 'expiring', 'online'];
const PAYMENTS_ROUTE = findRoute('DeviceEndRecordOfDevice');
/** The activation codes page: in no menu; the platform reaches it from here and from the activation records. */
const CODES_ROUTE = findRoute('ActivationCode');
const STATUS_COLOR: Record<DeviceStatus, string> = { active: 'success', inactive: 'default', disabled: 'error' };

/** Home page: the devices of the caller's institution subtree (all for the platform). */
export default function DeviceListPage() {
  const { t } = useTranslation('equipment');
  const lang = useSettings((s) => s.lang);
  const params = useListParams(DEVICE_LIST_PARAMS);
  const query = useDevices(params.query);
  // Device codes are redeemed by the institution that owns the device (the server checks the same).
  const ownInstitution = useSession((s) => (s.isAdmin ? null : s.userId));
  const [redeeming, setRedeeming] = useState<DeviceRow | null>(null);
  const access = useAccess();
  const { can } = access;
  const canCodes = !!CODES_ROUTE && canOpenRoute(CODES_ROUTE, access.viewer);
  const navigate = useNavigate();
  const isAdmin = useSession((s) => s.isAdmin);
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [editing, setEditing] = useState<DeviceRow | null>(null);
  const [secret, setSecret] = useState<{ serial: string; secret: string } | null>(null);
  const [selected, setSelected] = useState<DeviceRow[]>([]);
  const [distributing, setDistributing] = useState<DeviceRow[] | null>(null);
  const setStatus = useDeviceStatus();
  const reset = useResetSecret();
  const canDistribute = isAdmin && can('device:distribute');
  // Bulk enable/disable: the single action's button; the server checks each row as the single action does.
  const canStatus = isAdmin && can('device:status');
  const bulkStatus = useBulkDeviceStatus();
  const report = useBulkReport();
  const { t: ts } = useTranslation('shape');
  const runBulk = async (enabled: boolean) => {
    const answer = await bulkStatus.mutateAsync({ ids: selected.map((d) => d.id), enabled });
    setSelected([]);
    report(enabled ? t('life.enable') : t('life.disable'), answer);
  };

  const columns = useMemo<ColumnsType<DeviceRow>>(() => {
    const now = Date.now();
    return [
      { key: 'serial', dataIndex: 'serial', title: t('col.serial'), sorter: true, fixed: 'left', render: (v: string) => <span className="mono">{v}</span> },
      { key: 'name', dataIndex: 'name', title: t('col.name'), sorter: true },
      { key: 'model', dataIndex: 'model', title: t('col.model') },
      {
        key: 'institution',
        title: t('col.institution'),
        render: (_, r) => (r.institution_name ? r.institution_name : <Tag variant="filled">{t('platformStock')}</Tag>),
      },
      {
        key: 'status',
        dataIndex: 'status',
        title: t('col.status'),
        sorter: true,
        render: (v: DeviceStatus) => <Tag color={STATUS_COLOR[v]}>{t(`status.${v}`)}</Tag>,
      },
      {
        key: 'remaining_uses',
        dataIndex: 'remaining_uses',
        title: t('col.remainingUses'),
        align: 'right',
        render: (v: number | null) => (v == null ? <span className="text-muted">{t('timeBased')}</span> : formatNumber(v, lang)),
      },
      { key: 'total_inspections', dataIndex: 'total_inspections', title: t('col.totalInspections'), sorter: true, align: 'right', render: (v: number) => formatNumber(v, lang) },
      { key: 'activated_at', dataIndex: 'activated_at', title: t('col.activatedAt'), sorter: true, render: (v: string | null) => (v ? formatDateTime(v) : '—') },
      {
        key: 'expires_at',
        dataIndex: 'expires_at',
        title: t('col.expiresAt'),
        sorter: true,
        render: (v: string | null, r) => {
          if (!v) return '—';
          const expired = new Date(v).getTime() < now;
          return (
            <Space size={4} wrap={false}>
              <span>{formatDateTime(v)}</span>
              {expired ? (
                <Tag color="error" data-testid="tag-expired">
                  {t('expired')}
                </Tag>
              ) : r.expiring ? (
                <Tag color="warning" data-testid="tag-expiring">
                  {t('expiring')}
                </Tag>
              ) : null}
            </Space>
          );
        },
      },
      {
        key: 'last_seen_at',
        dataIndex: 'last_seen_at',
        title: t('col.lastSeen'),
        sorter: true,
        // Online: seen within the device_online_minutes parameter (the server decides).
        render: (v: string | null, r) => (
          <Space size={6} wrap={false}>
            <Badge status={r.online ? 'success' : 'default'} text={r.online ? t('presence.online') : t('presence.offline')} data-testid={r.online ? 'device-online' : 'device-offline'} />
            <RelativeTime value={v} placeholder={t('never')} />
          </Space>
        ),
      },
      {
        key: 'reported_version',
        dataIndex: 'reported_version',
        title: t('col.version'),
        render: (v: string | null) => (v ? <span className="mono">{v}</span> : <span className="text-muted">—</span>),
      },
      {
        key: 'actions',
        title: t('col.actions'),
        fixed: 'right' as const,
        render: (_: unknown, r: DeviceRow) => (
          <RowActions
            actions={[
              ...(ownInstitution != null && r.institution_id === ownInstitution && r.status !== 'disabled' ? [{ key: 'redeem', label: t('redeem.action'), onClick: () => setRedeeming(r) }] : []),
              ...(PAYMENTS_ROUTE ? [{ key: 'payments', label: t('life.payments'), onClick: () => navigate(PAYMENTS_ROUTE.path.replace(':id', String(r.id))) }] : []),
              ...(isAdmin
                ? [
                    { key: 'edit', sign: 'device:edit' as const, label: t('life.edit'), onClick: () => setEditing(r) },
                    {
                      key: 'status',
                      sign: 'device:status' as const,
                      label: r.status === 'disabled' ? t('life.enable') : t('life.disable'),
                      danger: r.status !== 'disabled',
                      onClick: () =>
                        r.status === 'disabled'
                          ? void setStatus.mutateAsync({ id: r.id, enabled: true })
                          : Modal.confirm({ title: t('life.confirmDisable', { serial: r.serial }), onOk: () => setStatus.mutateAsync({ id: r.id, enabled: false }) }),
                    },
                    {
                      key: 'reset',
                      sign: 'device:edit' as const,
                      label: t('life.resetSecret'),
                      onClick: () =>
                        Modal.confirm({
                          title: t('life.confirmReset', { serial: r.serial }),
                          onOk: async () => setSecret({ serial: r.serial, secret: (await reset.mutateAsync({ id: r.id })).secret }),
                        }),
                    },
                  ]
                : []),
            ]}
          />
        ),
      },
    ];
  }, [t, lang, ownInstitution, isAdmin, navigate, setStatus, reset]);

  const sameOwner = selected.every((d) => d.institution_id === selected[0]?.institution_id);

  return (
    <>
      <ListPage<DeviceRow, (typeof DEVICE_LIST_PARAMS.filters)[number]>
        listName="equipment.list"
        testId="device-list"
        params={params}
        query={query}
        columns={columns}
        rowKey="id"
        codecs={CODECS}
        instant={INSTANT}
        noDataText={t('noData')}
        title={t('title')}
        toolbar={
          <>
            {isAdmin ? (
              <>
                {can('device:add') ? (
                  <>
                    <Button type="primary" onClick={() => setAdding(true)} data-testid="device-add-button">
                      {t('life.add')}
                    </Button>
                    <Button onClick={() => setImporting(true)} data-testid="device-import-button">
                      {t('life.importFile')}
                    </Button>
                  </>
                ) : null}
                {canCodes ? (
                  <Button onClick={() => navigate(CODES_ROUTE!.path)} data-testid="device-codes-link">
                    {t('life.codesPage')}
                  </Button>
                ) : null}
                {canDistribute ? (
                  <Button
                    disabled={!selected.length || !sameOwner}
                    title={!selected.length ? t('life.selectFirst') : !sameOwner ? t('life.mixedOwners') : undefined}
                    onClick={() => setDistributing(selected)}
                    data-testid="device-distribute-button"
                  >
                    {t('life.distribute')}
                    {selected.length ? ` (${selected.length})` : ''}
                  </Button>
                ) : null}
              </>
            ) : null}
            <ExportButton endpoint="equipment.exportList" sign="device:export" query={params.query} filename="devices" testId="devices-export" />
          </>
        }
        bulk={
          canStatus ? (
            <BulkBar count={selected.length} onClear={() => setSelected([])}>
              <Button loading={bulkStatus.isPending} onClick={() => void runBulk(true)} data-testid="bulk-enable">
                {t('life.enable')}
              </Button>
              <Button
                danger
                onClick={() =>
                  Modal.confirm({
                    title: ts('bulk.confirm', { action: t('life.disable'), n: selected.length }),
                    okButtonProps: { danger: true, 'data-testid': 'bulk-disable-ok' } as never,
                    onOk: () => runBulk(false),
                  })
                }
                data-testid="bulk-disable"
              >
                {t('life.disable')}
              </Button>
            </BulkBar>
          ) : null
        }
        tableProps={canDistribute || canStatus ? { rowSelection: { selectedRowKeys: selected.map((d) => d.id), onChange: (_keys, rows) => setSelected(rows) } } : undefined}
        filters={
          <>
            <KeywordFilter label={t('filter.keyword')} placeholder={t('filter.keywordPlaceholder')} />
            <Form.Item name="status" label={t('filter.status')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 140 }} options={DEVICE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))} data-testid="filter-status" />
            </Form.Item>
            <Form.Item name="institution_id" label={t('filter.institution')}>
              <InstitutionSelect placeholder={t('filter.institutionPlaceholder')} style={{ width: 220 }} data-testid="filter-institution" />
            </Form.Item>
            <Form.Item name="expires" label={t('filter.expires')}>
              <LazyRangePicker allowEmpty={[true, true]} placeholder={[t('common:list.dateFrom'), t('common:list.dateTo')]} style={{ width: 260 }} />
            </Form.Item>
            <Form.Item name="expiring" label={t('filter.expiring', { days: EXPIRING_DAYS })} valuePropName="checked">
              <Switch data-testid="filter-expiring" />
            </Form.Item>
            <Form.Item name="online" label={t('filter.online')}>
              <Select
                allowClear
                placeholder={t('common:list.all')}
                style={{ width: 140 }}
                options={[
                  { value: 'true', label: t('presence.online') },
                  { value: 'false', label: t('presence.offline') },
                ]}
                data-testid="filter-online"
              />
            </Form.Item>
            <Form.Item name="reported_version" label={t('filter.version')}>
              <Input allowClear placeholder={t('filter.versionPlaceholder')} style={{ width: 140 }} maxLength={64} data-testid="filter-version" />
            </Form.Item>
          </>
        }
      />
      <RedeemCodeDialog device={redeeming} onClose={() => setRedeeming(null)} />
      <AddDeviceDialog open={adding} onClose={() => setAdding(false)} onSecret={setSecret} />
      <ImportDialog open={importing} onClose={() => setImporting(false)} />
      <EditDeviceDialog device={editing} onClose={() => setEditing(null)} />
      <DistributeDialog devices={distributing} onClose={() => setDistributing(null)} onDone={() => setSelected([])} />
      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
    </>
  );
}
