import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import App from 'antd/es/app';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Segmented from 'antd/es/segmented';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import type { ColumnsType } from 'antd/es/table';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { INSTITUTION_GRADES, INSTITUTION_STATUSES, type InstitutionRow } from '@app/contract/api/institutions';
import { boolFilter, CreateButton, endpointQueryOptions, ListPage, useListParams } from '../../components/list';
import { RowActions } from '../../components/RowActions';
import { RegionName } from '../../components/RegionName';
import { RegionFilter, regionFilterCodec } from '../../components/RegionFilter';
import { useAccess } from '../../lib/access';
import { useSession } from '../../lib/session';
import { formatDate } from '../../lib/time';
import { CHILDREN_STALE_MS, childrenInput, loadLevels, useEndInstitutionSessions, useInstitutions, useSetInstitutionStatus } from './api';
import { InstitutionForm, type FormTarget } from './InstitutionForm';
import { InstitutionDetailDrawer } from './InstitutionDetailDrawer';
import { MoveDialog } from './MoveDialog';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import { GradeTag, TermText } from './parts';
import { ExportButton } from '../../components/ExportButton';

const FILTERS = ['name', 'grade', 'region', 'status', 'expiring', 'overdue'] as const;
const CODECS = [regionFilterCodec('region'), boolFilter('expiring'), boolFilter('overdue')];
const INSTANT = ['grade', 'region', 'status', 'expiring', 'overdue'];
/** "Expand to level n": 1 shows the page's rows alone, 4 three levels below them. */
const LEVELS = [1, 2, 3, 4] as const;

type TreeRow = InstitutionRow & { children?: TreeRow[] };

/**
 * /institutional/index (grades 0-3): the institution tree of the caller's subtree. Without filters the
 * page's rows are the top of the tree (admins: the grade-1 agents; an institution: itself), expanded
 * row by row or all to a level at once; with a filter the matching institutions are listed flat (each
 * still expandable).
 */
export default function InstitutionListPage() {
  const { t } = useTranslation('institutions');
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const { can } = useAccess();
  const session = useSession();
  const params = useListParams({ filters: FILTERS });
  const query = useInstitutions(params.query);
  const [expanded, setExpanded] = useState<number[]>([]);
  const [level, setLevel] = useState<number>(1);
  const [levelLoading, setLevelLoading] = useState(false);
  const [viewId, setViewId] = useState<number | null>(null);
  const [formTarget, setFormTarget] = useState<FormTarget | null>(null);
  const [moving, setMoving] = useState<InstitutionRow | null>(null);
  const [resetting, setResetting] = useState<InstitutionRow | null>(null);
  const setStatus = useSetInstitutionStatus(t('saved'));
  const ownId = session.isAdmin ? null : session.userId;

  const childQueries = useQueries({ queries: expanded.map((id) => ({ ...endpointQueryOptions('institutions.subtree', childrenInput(id)), staleTime: CHILDREN_STALE_MS })) });
  const childrenOf = useMemo(() => {
    const map = new Map<number, InstitutionRow[]>();
    expanded.forEach((id, i) => {
      const data = childQueries[i]?.data;
      if (data) map.set(id, data.list);
    });
    return map;
  }, [expanded, childQueries]);

  const rows = query.data?.list;
  const flat = params.hasFilters;
  const tree = useMemo(() => {
    const attach = (r: InstitutionRow, seen: Set<number>): TreeRow => {
      if (r.child_count === 0 || seen.has(r.id)) return r;
      const kids = childrenOf.get(r.id);
      const next = new Set(seen).add(r.id);
      return { ...r, children: kids ? kids.map((c) => attach(c, next)) : [] };
    };
    // A filtered list is flat: the matches alone (their children may match too, and a row must appear once).
    return flat ? rows : rows?.map((r) => attach(r, new Set()));
  }, [rows, childrenOf, flat]);

  // "Expand to level n" loads the levels below the page's rows in one call: when the level or the
  // page's rows change (not when the same rows are refetched: expanded rows refetch their own children).
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const topKey = rows?.map((r) => r.id).join(',');
  useEffect(() => {
    const current = rowsRef.current;
    if (topKey === undefined || !current) return;
    if (level <= 1 || flat) {
      setExpanded([]);
      return;
    }
    let cancelled = false;
    setLevelLoading(true);
    loadLevels(qc, current, level - 1)
      .then((open) => {
        if (!cancelled) setExpanded(open.map((r) => r.id));
      })
      .catch(() => {
        /* the client already said why */
      })
      .finally(() => {
        if (!cancelled) setLevelLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, [qc, topKey, level, flat]);

  const toggleStatus = useCallback(
    (r: InstitutionRow) => {
      const disabling = r.status === 'enabled';
      modal.confirm({
        title: t(disabling ? 'status.disableTitle' : 'status.enableTitle', { name: r.name }),
        content: t(disabling ? 'status.disableText' : 'status.enableText'),
        okText: t(disabling ? 'action.disable' : 'action.enable'),
        okButtonProps: { danger: disabling, 'data-testid': 'confirm-status' } as never,
        onOk: () => setStatus.mutateAsync({ id: r.id, status: disabling ? 'disabled' : 'enabled' }),
      });
    },
    [modal, t, setStatus.mutateAsync],
  );

  const endSessions = useEndInstitutionSessions();
  const confirmEndSessions = useCallback(
    (r: InstitutionRow) =>
      modal.confirm({
        title: t('endSessions.title', { name: r.name }),
        content: t('endSessions.text'),
        okText: t('action.endSessions'),
        okButtonProps: { danger: true, 'data-testid': 'confirm-end-sessions' } as never,
        onOk: async () => {
          const { ended } = await endSessions.mutateAsync({ kind: 'institution', id: r.id });
          void message.success(t('endSessions.done', { count: ended }));
        },
      }),
    [modal, message, t, endSessions.mutateAsync],
  );

  const columns = useMemo<ColumnsType<TreeRow>>(
    () => [
      {
        key: 'name',
        dataIndex: 'name',
        title: t('col.name'),
        sorter: true,
        fixed: 'left',
        render: (v: string, r) => (
          <Typography.Link onClick={() => setViewId(r.id)} data-testid={`institution-name-${r.username}`}>
            {v}
          </Typography.Link>
        ),
      },
      { key: 'grade', dataIndex: 'grade', title: t('col.grade'), sorter: true, render: (g: number) => <GradeTag grade={g} /> },
      { key: 'username', dataIndex: 'username', title: t('col.username'), render: (v: string) => <span className="mono">{v}</span> },
      { key: 'contact', title: t('col.contact'), render: (_, r) => <span>{`${r.contact_name} ${r.phone}`}</span> },
      { key: 'region', dataIndex: 'region', title: t('col.region'), render: (v: string[]) => <RegionName codes={v} /> },
      { key: 'term_expires_at', dataIndex: 'term_expires_at', title: t('col.term'), sorter: true, render: (_, r) => <TermText row={r} /> },
      {
        key: 'status',
        dataIndex: 'status',
        title: t('col.status'),
        sorter: true,
        render: (v: InstitutionRow['status']) => <Tag color={v === 'enabled' ? 'success' : 'default'}>{t(`statusName.${v}`)}</Tag>,
      },
      { key: 'child_count', dataIndex: 'child_count', title: t('col.children'), align: 'right' },
      { key: 'created_at', dataIndex: 'created_at', title: t('col.createdAt'), sorter: true, render: (v: string) => formatDate(v) },
      {
        key: 'actions',
        title: t('common:list.actions'),
        fixed: 'right',
        render: (_, r) => {
          const own = r.id === ownId;
          // Secondary actions in a menu: institutions act on their descendants only; grade 1 has one place, the top.
          const more = [
            ...(own
              ? []
              : [
                  {
                    key: 'status',
                    sign: 'institution:status' as const,
                    label: r.status === 'enabled' ? t('action.disable') : t('action.enable'),
                    danger: r.status === 'enabled',
                    onClick: () => toggleStatus(r),
                  },
                  { key: 'password', sign: 'institution:password' as const, label: t('action.resetPassword'), onClick: () => setResetting(r) },
                  // The platform signs an institution out everywhere (its status button); institutions do not.
                  ...(ownId == null ? [{ key: 'end-sessions', sign: 'institution:status' as const, label: t('action.endSessions'), onClick: () => confirmEndSessions(r) }] : []),
                ]),
            ...(r.grade === 1 ? [] : [{ key: 'move', sign: 'institution:move' as const, label: t('action.move'), onClick: () => setMoving(r) }]),
          ].filter((a) => can(a.sign));
          return (
            <RowActions
              actions={[
                { key: 'view', label: t('action.view'), onClick: () => setViewId(r.id) },
                // Institutions create children of their own only; admins under any institution.
                ...(ownId == null || own ? [{ key: 'add-child', sign: 'institution:add' as const, label: t('action.addChild'), onClick: () => setFormTarget({ mode: 'create', parent: r }) }] : []),
                { key: 'edit', sign: 'institution:edit', label: t('action.edit'), onClick: () => setFormTarget({ mode: 'edit', row: r }) },
              ]}
              more={{ label: t('action.more'), actions: more }}
            />
          );
        },
      },
    ],
    [t, ownId, toggleStatus, confirmEndSessions, can],
  );

  const childFetching = childQueries.some((q) => q.isFetching);
  const shownQuery = { ...query, data: query.data && tree ? { ...query.data, list: tree } : undefined, isFetching: query.isFetching || childFetching || levelLoading };

  return (
    <>
      <ListPage<TreeRow, (typeof FILTERS)[number]>
        listName="institutions.list"
        testId="institution-list"
        title={params.hasFilters ? t('titleFiltered') : t('title')}
        params={params}
        query={shownQuery}
        columns={columns}
        rowKey="id"
        codecs={CODECS}
        instant={INSTANT}
        noDataText={t('noData')}
        tableProps={{
          expandable: {
            expandedRowKeys: expanded,
            onExpand: (open, r) => setExpanded((keys) => (open ? [...keys, r.id] : keys.filter((k) => k !== r.id))),
          },
        }}
        toolbar={
          <Flex gap={8} align="center" wrap>
            {flat ? null : (
              <Tooltip title={t('level.help')}>
                <Segmented value={level} onChange={(v) => setLevel(Number(v))} options={LEVELS.map((n) => ({ value: n, label: t('level.n', { n }) }))} data-testid="institution-level" />
              </Tooltip>
            )}
            {can('institution:add') ? (
              <CreateButton sign="institution:add" onClick={() => setFormTarget({ mode: 'create', parent: null })} testId="institution-create">
                {session.isAdmin ? t('createAgent') : t('createChild')}
              </CreateButton>
            ) : null}
            <ExportButton endpoint="institutions.exportList" sign="institution:export" query={params.query} filename="institutions" testId="institutions-export" />
          </Flex>
        }
        filters={
          <>
            <Form.Item name="name" label={t('filter.name')}>
              <Input allowClear placeholder={t('filter.namePlaceholder')} style={{ width: 200 }} data-testid="filter-name" />
            </Form.Item>
            <Form.Item name="grade" label={t('filter.grade')}>
              <Select
                allowClear
                placeholder={t('common:list.all')}
                style={{ width: 120 }}
                options={INSTITUTION_GRADES.map((g) => ({ value: String(g), label: t(`grade.${g}`) }))}
                data-testid="filter-grade"
              />
            </Form.Item>
            <RegionFilter label={t('filter.region')} placeholder={t('filter.regionPlaceholder')} />
            <Form.Item name="status" label={t('filter.status')}>
              <Select
                allowClear
                placeholder={t('common:list.all')}
                style={{ width: 120 }}
                options={INSTITUTION_STATUSES.map((s) => ({ value: s, label: t(`statusName.${s}`) }))}
                data-testid="filter-status"
              />
            </Form.Item>
            <Form.Item name="expiring" label={t('filter.expiring')} valuePropName="checked">
              <Switch data-testid="filter-expiring" />
            </Form.Item>
            <Form.Item name="overdue" label={t('filter.overdue')} valuePropName="checked">
              <Switch data-testid="filter-overdue" />
            </Form.Item>
          </>
        }
      />
      <InstitutionDetailDrawer
        id={viewId}
        onClose={() => setViewId(null)}
        onEdit={(r) => {
          setViewId(null);
          setFormTarget({ mode: 'edit', row: r });
        }}
      />
      <InstitutionForm target={formTarget} onClose={() => setFormTarget(null)} />
      <MoveDialog row={moving} onClose={() => setMoving(null)} />
      <ResetPasswordDialog row={resetting} onClose={() => setResetting(null)} />
    </>
  );
}
