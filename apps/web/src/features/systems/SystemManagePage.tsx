import { useCallback, useMemo, useState } from 'react';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { SystemRow, SystemTreeNode } from '@app/contract/api/systems';
import { ListPage, useListParams, CreateButton, KeywordFilter } from '../../components/list';
import { RowActions, type RowAction } from '../../components/RowActions';
import { formatNumber } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { useText } from '../../components/l10n-text';
import { useGuardedDelete } from '../../components/guarded-delete';
import { useSystems, useSystemTree } from './api';
import { SystemForm, type SystemDialog } from './SystemForm';
import { WeightBars } from './WeightBars';
import '../../components/master-data.css';
import './systems.css';

const FILTERS = ['keyword', 'level'] as const;
const INSTANT = ['level'];

type TreeRow = SystemRow & { children?: TreeRow[] };

/** Subsystems of the tree as list rows (the tree answer has the fields the table shows). */
function childRows(node: SystemTreeNode | undefined): TreeRow[] | undefined {
  if (!node?.children.length) return undefined;
  return node.children.map((c) => ({
    id: c.id,
    parent_id: c.parent_id,
    parent_name: node.name,
    level: 2,
    name: c.name,
    weights: c.weights,
    sort: c.sort,
    child_count: 0,
    created_at: '',
  }));
}

/**
 * /disease/management2 (grade 0): body systems and their subsystems, with the meridian weights of the
 * system scores. Without filters: a tree (body systems paged, subsystems as children); with a keyword
 * or level filter: the matching rows of both levels.
 */
export default function SystemManagePage() {
  const { t } = useTranslation('systems');
  const lang = useSettings((s) => s.lang);
  const text = useText();
  const params = useListParams({ filters: FILTERS });
  const treeMode = !params.hasFilters;
  const query = useSystems(treeMode ? { ...params.query, level: 1 } : params.query);
  const tree = useSystemTree();
  const guardedDelete = useGuardedDelete();
  const [dialog, setDialog] = useState<SystemDialog>({ open: false, record: null, parentId: null });
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());

  const byId = useMemo(() => new Map((tree.data ?? []).map((n) => [n.id, n])), [tree.data]);
  const data = useMemo(() => {
    if (!query.data || !treeMode) return query.data;
    return { ...query.data, list: query.data.list.map((r): TreeRow => ({ ...r, children: childRows(byId.get(r.id)) })) };
  }, [query.data, treeMode, byId]);
  const expanded = (data?.list ?? []).filter((r) => (r as TreeRow).children && !collapsed.has(r.id)).map((r) => r.id);

  const openCreate = useCallback((parentId: number | null) => setDialog({ open: true, record: null, parentId }), []);
  const openEdit = useCallback((record: SystemRow) => setDialog({ open: true, record, parentId: null }), []);

  const columns = useMemo<ColumnsType<TreeRow>>(
    () => [
      {
        key: 'name',
        dataIndex: 'name',
        title: t('col.name'),
        render: (_, r) => (
          <span className={r.level === 1 ? 'system-name is-body' : 'system-name'} data-testid={`system-name-${r.id}`}>
            {text(r.name)}
          </span>
        ),
      },
      {
        key: 'level',
        dataIndex: 'level',
        title: t('col.level'),
        render: (v: 1 | 2) => (
          <Tag color={v === 1 ? 'blue' : 'default'} variant="filled">
            {t(v === 1 ? 'level.body' : 'level.sub')}
          </Tag>
        ),
      },
      ...(treeMode ? [] : [{ key: 'parent', title: t('col.parent'), render: (_: unknown, r: TreeRow) => (r.parent_name ? text(r.parent_name) : <span className="text-muted">—</span>) }]),
      { key: 'weights', dataIndex: 'weights', title: t('col.weights'), render: (_, r) => <WeightBars weights={r.weights} /> },
      {
        key: 'child_count',
        dataIndex: 'child_count',
        title: t('col.children'),
        align: 'right',
        render: (v: number, r) => (r.level === 1 ? formatNumber(r.children?.length ?? v, lang) : <span className="text-muted">—</span>),
      },
      { key: 'sort', dataIndex: 'sort', title: t('col.sort'), sorter: true, align: 'right' },
      {
        key: 'actions',
        title: t('common:list.actions'),
        fixed: 'right',
        render: (_, r) => (
          <RowActions
            actions={[
              { key: 'edit', sign: 'system:edit', label: t('common:form.edit'), onClick: () => openEdit(r) },
              {
                key: 'delete',
                sign: 'system:delete',
                label: t('common:confirm.delete'),
                danger: true,
                onClick: () => guardedDelete({ endpoint: 'systems.remove', id: r.id, name: text(r.name), content: t('deleteText'), invalidate: ['systems'] }),
              },
              ...(r.level === 1 ? [{ key: 'add-sub', sign: 'system:add', label: t('action.addSub'), onClick: () => openCreate(r.id) } satisfies RowAction] : []),
            ]}
          />
        ),
      },
    ],
    [t, lang, text, treeMode, openEdit, openCreate, guardedDelete],
  );

  return (
    <>
      <ListPage<TreeRow, (typeof FILTERS)[number]>
        listName="systems.list"
        testId="system-list"
        title={t('title')}
        params={params}
        query={{ ...query, data }}
        columns={columns}
        rowKey="id"
        instant={INSTANT}
        noDataText={t('noData')}
        tableProps={{
          expandable: {
            expandedRowKeys: expanded,
            onExpand: (open, r) =>
              setCollapsed((s) => {
                const n = new Set(s);
                if (open) n.delete(r.id);
                else n.add(r.id);
                return n;
              }),
            indentSize: 28,
          },
          rowClassName: (r) => (r.level === 2 ? 'system-row-sub' : ''),
        }}
        toolbar={
          <CreateButton sign="system:add" onClick={() => openCreate(null)} testId="system-create">
            {t('create')}
          </CreateButton>
        }
        filters={
          <>
            <KeywordFilter label={t('filter.keyword')} placeholder={t('filter.keywordPlaceholder')} />
            <Form.Item name="level" label={t('col.level')}>
              <Select
                allowClear
                placeholder={t('common:list.all')}
                style={{ width: 160 }}
                options={[
                  { value: '1', label: t('level.body') },
                  { value: '2', label: t('level.sub') },
                ]}
                data-testid="filter-level"
              />
            </Form.Item>
          </>
        }
      />
      <SystemForm state={dialog} onClose={() => setDialog((d) => ({ ...d, open: false }))} bodies={tree.data ?? []} />
    </>
  );
}
