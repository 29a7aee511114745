import { useMemo, useState } from 'react';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Flex from 'antd/es/flex';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import Badge from 'antd/es/badge';
import type { ColumnsType } from 'antd/es/table';
import ReloadOutlined from '@ant-design/icons/es/icons/ReloadOutlined';
import NodeExpandOutlined from '@ant-design/icons/es/icons/NodeExpandOutlined';
import NodeCollapseOutlined from '@ant-design/icons/es/icons/NodeCollapseOutlined';
import { useTranslation } from 'react-i18next';
import { pickText } from '@app/contract/i18n';
import type { MenuNode } from '@app/contract/api/jurisdiction';
import { useConfirmDelete, useFormModal, useListParams, ListEmpty } from '../../components';
import { useSettings } from '../../lib/settings';
import { formatNumber } from '../../lib/money';
import { MenuIcon } from '../../components/MenuIcon';
import { useMenuTree, useDeleteMenu } from './api';
import { filterTree, whyNotDeleteMenu } from '@app/contract/api/jurisdiction-rules';
import { ActionLinks, LockBadge, MenuTypeTag, useWhy } from './parts';
import { MenuForm, type MenuDialogState } from './MenuForm';
import './jurisdiction.css';
import { CardList, CreateButton } from '../../components/list';
import { useIsPhone } from '../../lib/media';

const FILTERS = ['keyword'] as const;

interface Row extends Omit<MenuNode, 'children'> {
  children?: Row[];
  node: MenuNode;
}

const toRows = (nodes: MenuNode[]): Row[] => nodes.map((n) => ({ ...n, node: n, children: n.children.length ? toRows(n.children) : undefined }));

function count(nodes: MenuNode[], out = { 1: 0, 2: 0, 3: 0 }) {
  for (const n of nodes) {
    out[n.type]++;
    count(n.children, out);
  }
  return out;
}

/** Keys of the directories (expanded by default: pages show, buttons stay folded under their page). */
function directoryKeys(nodes: MenuNode[], out: number[] = []): number[] {
  for (const n of nodes)
    if (n.children.length && n.type === 1) {
      out.push(n.id);
      directoryKeys(n.children, out);
    }
  return out;
}
function parentKeys(nodes: MenuNode[], out: number[] = []): number[] {
  for (const n of nodes)
    if (n.children.length) {
      out.push(n.id);
      parentKeys(n.children, out);
    }
  return out;
}

/** /jurisdiction/menu: the menu tree (directories, pages, buttons), with add-child / edit / delete. */
export default function MenuManagePage() {
  const { t } = useTranslation('jurisdiction');
  const lang = useSettings((s) => s.lang);
  const params = useListParams({ filters: FILTERS });
  const keyword = (params.filters.keyword ?? '').trim().toLowerCase();
  // What is typed but not searched yet; null = show the URL's keyword (no effect: kept-alive pages re-run effects).
  const [typed, setTyped] = useState<string | null>(null);
  const search = typed ?? params.filters.keyword ?? '';
  const applySearch = (v: string) => {
    setTyped(null);
    params.setFilters({ keyword: v.trim() || undefined });
  };
  const query = useMenuTree();
  const tree = useMemo(() => query.data ?? [], [query.data]);
  const dlg = useFormModal<MenuDialogState>();
  const del = useDeleteMenu(t('common:confirm.deleted'));
  const confirmDelete = useConfirmDelete();
  const why = useWhy();

  const shown = useMemo(() => {
    if (!keyword) return tree;
    return filterTree(tree, (n) => n.sign.toLowerCase().includes(keyword) || Object.values(n.title).some((v) => v.toLowerCase().includes(keyword)));
  }, [tree, keyword]);
  const rows = useMemo(() => toRows(shown), [shown]);
  const totals = useMemo(() => count(tree), [tree]);

  const [expanded, setExpanded] = useState<number[] | null>(null);
  // Searching unfolds every match; otherwise directories start unfolded.
  const expandedKeys = keyword ? parentKeys(shown) : (expanded ?? directoryKeys(tree));

  const titleOf = (n: Pick<MenuNode, 'title'>) => pickText(n.title, lang);

  const isPhone = useIsPhone();
  const columns: ColumnsType<Row> = [
    {
      key: 'title',
      title: t('menu.col.title'),
      render: (_, r) => (
        <Space size={6} className="jur-menu-title" data-testid={`menu-row-${r.sign}`}>
          <span>{titleOf(r)}</span>
          {r.builtin ? <LockBadge title={t('menu.builtinHint')} testId="builtin-lock" /> : null}
        </Space>
      ),
    },
    { key: 'type', mobile: 'status', dataIndex: 'type', title: t('menu.col.type'), render: (v: Row['type']) => <MenuTypeTag type={v} /> },
    {
      key: 'sign',
      dataIndex: 'sign',
      title: t('menu.col.sign'),
      render: (v: string) => (
        <Typography.Text className="mono" copyable={{ text: v }}>
          {v}
        </Typography.Text>
      ),
    },
    {
      key: 'icon',
      dataIndex: 'icon',
      title: t('menu.col.icon'),
      render: (v: string | null, r) =>
        r.type === 3 || !v ? (
          <span className="text-muted">—</span>
        ) : (
          <Space size={6} className="jur-icon-cell">
            <MenuIcon name={v} />
            <Typography.Text type="secondary">{v}</Typography.Text>
          </Space>
        ),
    },
    { key: 'sort', dataIndex: 'sort', title: t('menu.col.sort'), align: 'right', render: (v: number) => formatNumber(v, lang) },
    {
      key: 'hidden',
      dataIndex: 'hidden',
      title: t('menu.col.hidden'),
      render: (v: 0 | 1) => (v ? <Badge status="default" text={t('menu.hidden')} /> : <Badge status="success" text={t('menu.visible')} />),
    },
    {
      key: 'actions',
      title: t('common:list.actions'),
      fixed: 'right',
      render: (_, r) => {
        const blocked = whyNotDeleteMenu(r.node);
        return (
          <ActionLinks
            actions={[
              ...(r.type !== 3 ? [{ key: 'add-child', sign: 'menu:add' as const, label: t('menu.addChild'), onClick: () => dlg.openEdit({ mode: 'create', parent: r.node }) }] : []),
              { key: 'edit', sign: 'menu:edit', label: t('common:form.edit'), onClick: () => dlg.openEdit({ mode: 'edit', node: r.node }) },
              {
                key: 'delete',
                sign: 'menu:delete',
                label: t('common:confirm.delete'),
                danger: true,
                disabledReason: why(blocked, { count: r.node.children.length }),
                onClick: () => confirmDelete({ name: titleOf(r), onOk: () => del.mutateAsync({ id: r.id }) }),
              },
            ]}
          />
        );
      },
    },
  ];

  const reason = query.isError && !query.data ? 'error' : query.isPending ? 'loading' : keyword ? 'no-match' : 'no-data';

  return (
    <Flex vertical gap={16} data-testid="menu-manage">
      <Card className="list-card" styles={{ body: { paddingTop: 12 } }}>
        <Flex justify="space-between" align="center" gap={8} wrap className="jur-toolbar">
          <Flex gap={12} align="center" wrap>
            <Input.Search
              allowClear
              value={search}
              onChange={(e) => {
                if (e.target.value) setTyped(e.target.value);
                else applySearch('');
              }}
              onSearch={applySearch}
              placeholder={t('menu.searchPlaceholder')}
              aria-label={t('menu.searchPlaceholder')}
              style={{ width: 260 }}
              data-testid="menu-search"
            />
            <Typography.Text type="secondary" data-testid="menu-counts">
              {t('menu.counts', { dirs: formatNumber(totals[1], lang), pages: formatNumber(totals[2], lang), buttons: formatNumber(totals[3], lang) })}
            </Typography.Text>
          </Flex>
          <Flex gap={8} wrap align="center">
            <Button icon={<NodeExpandOutlined />} onClick={() => setExpanded(parentKeys(tree))} disabled={!!keyword} data-testid="menu-expand-all">
              {t('expandAll')}
            </Button>
            <Button icon={<NodeCollapseOutlined />} onClick={() => setExpanded([])} disabled={!!keyword} data-testid="menu-collapse-all">
              {t('collapseAll')}
            </Button>
            <CreateButton sign="menu:add" onClick={() => dlg.openEdit({ mode: 'create', parent: null })} testId="menu-create">
              {t('menu.addRoot')}
            </CreateButton>
            <Tooltip title={t('common:list.refresh')}>
              <Button aria-label={t('common:list.refresh')} icon={<ReloadOutlined spin={query.isFetching} />} onClick={() => query.refetch()} data-testid="list-refresh" />
            </Tooltip>
          </Flex>
        </Flex>
        {isPhone ? (
          <CardList<Row>
            columns={columns}
            rows={rows}
            rowKey="id"
            loading={query.isFetching}
            expandable={{ expandedRowKeys: expandedKeys, onExpandedRowsChange: (keys) => (keyword ? undefined : setExpanded(keys as number[])) }}
            empty={<ListEmpty reason={reason} noDataText={t('menu.noData')} onClear={() => applySearch('')} onRetry={() => query.refetch()} />}
          />
        ) : (
          <Table<Row>
            columns={columns}
            dataSource={rows}
            rowKey="id"
            size="middle"
            loading={query.isFetching}
            pagination={false}
            scroll={{ x: 'max-content' }}
            expandable={{
              expandedRowKeys: expandedKeys,
              onExpandedRowsChange: (keys) => {
                if (!keyword) setExpanded(keys as number[]);
              },
              indentSize: 20,
            }}
            rowClassName={(r) => `jur-menu-row jur-menu-type-${r.type}`}
            locale={{ emptyText: <ListEmpty reason={reason} noDataText={t('menu.noData')} onClear={() => applySearch('')} onRetry={() => query.refetch()} /> }}
            data-testid="menu-table"
          />
        )}
      </Card>
      <MenuForm dlg={dlg} tree={tree} />
    </Flex>
  );
}
