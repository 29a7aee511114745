import { useMemo, useState, type Key, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Flex from 'antd/es/flex';
import Input from 'antd/es/input';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import Tooltip from 'antd/es/tooltip';
import Tree from 'antd/es/tree';
import Typography from 'antd/es/typography';
import SearchOutlined from '@ant-design/icons/es/icons/SearchOutlined';
import { useTranslation } from 'react-i18next';
import { pickText } from '@app/contract/i18n';
import type { GrantNode } from '@app/contract/api/jurisdiction';
import { useSettings } from '../../lib/settings';
import { MenuIcon } from '../../components/MenuIcon';
import { filterTree, grantAll, grantNone, grantSummary, indexGrants, normalizeGrants, toggleGrant } from '@app/contract/api/jurisdiction-rules';
import { MenuTypeTag } from './parts';

interface Props {
  tree: GrantNode[] | undefined;
  loading?: boolean;
  /** Granted node ids (a form control: Form.Item name="menu_ids"). */
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** The super role: everything, fixed. */
  locked?: boolean;
  id?: string;
}

interface TreeItem {
  key: number;
  title: ReactNode;
  disableCheckbox?: boolean;
  children?: TreeItem[];
  className?: string;
  isLeaf?: boolean;
}

function parentKeys(nodes: GrantNode[], out: number[] = []): number[] {
  for (const n of nodes)
    if (n.children.length && n.type !== 2) {
      out.push(n.id);
      parentKeys(n.children, out);
    }
  return out;
}
function allParentKeys(nodes: GrantNode[], out: number[] = []): number[] {
  for (const n of nodes)
    if (n.children.length) {
      out.push(n.id);
      allParentKeys(n.children, out);
    }
  return out;
}

/**
 * The grant editor: the menu tree with a checkbox per directory, page and button. Checking a button
 * checks its page (and directory); checking a page or directory checks what is below it; nodes the
 * caller does not hold itself are disabled (the server would refuse them).
 */
export function GrantTree({ tree, loading, value, onChange, locked, id }: Props) {
  const { t } = useTranslation('jurisdiction');
  const lang = useSettings((s) => s.lang);
  const nodes = useMemo(() => tree ?? [], [tree]);
  const idx = useMemo(() => indexGrants(nodes), [nodes]);
  const checked = useMemo(() => new Set(locked ? idx.all : (value ?? [])), [value, locked, idx]);
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<Key[] | null>(null);
  const keyword = search.trim().toLowerCase();

  const shown = useMemo(() => (keyword ? filterTree(nodes, (n) => n.sign.toLowerCase().includes(keyword) || pickText(n.title, lang).toLowerCase().includes(keyword)) : nodes), [nodes, keyword, lang]);

  const items = useMemo<TreeItem[]>(() => {
    // One node as a tree item (its label is a prop of the item, not a list child).
    const item = (n: GrantNode): TreeItem => {
      const label = (
        <span className={`jur-grant-node jur-grant-type-${n.type}`} data-testid={`grant-${n.sign}`}>
          {n.type !== 3 ? (
            <span className="jur-grant-icon">
              <MenuIcon name={n.icon} />
            </span>
          ) : null}
          <span className="jur-grant-title">{pickText(n.title, lang)}</span>
          {n.type === 3 ? <MenuTypeTag type={3} /> : null}
          <Typography.Text type="secondary" className="jur-grant-sign mono">
            {n.sign}
          </Typography.Text>
        </span>
      );
      return {
        key: n.id,
        title:
          !n.grantable && !locked ? (
            <Tooltip title={t('role.form.notGrantable')} placement="right">
              {label}
            </Tooltip>
          ) : (
            label
          ),
        disableCheckbox: locked || !n.grantable,
        className: n.type === 3 ? 'jur-grant-button-row' : undefined,
        children: n.children.length ? walk(n.children) : undefined,
      };
    };
    const walk = (list: GrantNode[]): TreeItem[] => list.map(item);
    return walk(shown);
  }, [shown, lang, locked, t]);

  const set = (next: Set<number>) => onChange?.(normalizeGrants(idx, next));
  const summary = grantSummary(idx, checked);
  const expandedKeys = keyword ? allParentKeys(shown) : (expanded ?? parentKeys(nodes));

  if (loading && !tree) return <Skeleton active paragraph={{ rows: 8 }} />;

  return (
    <div className="jur-grant" id={id} data-testid="grant-tree">
      <Flex justify="space-between" align="center" gap={8} wrap className="jur-grant-bar">
        <Input
          allowClear
          size="small"
          prefix={<SearchOutlined />}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t('role.form.searchPlaceholder')}
          aria-label={t('role.form.searchPlaceholder')}
          style={{ width: 200 }}
          data-testid="grant-search"
        />
        <Space size={4} wrap>
          <Button size="small" type="text" onClick={() => setExpanded(allParentKeys(nodes))} disabled={!!keyword}>
            {t('expandAll')}
          </Button>
          <Button size="small" type="text" onClick={() => setExpanded([])} disabled={!!keyword}>
            {t('collapseAll')}
          </Button>
          {!locked ? (
            <>
              <Button size="small" type="text" onClick={() => set(grantAll(idx, checked))} data-testid="grant-all">
                {t('role.form.selectAll')}
              </Button>
              <Button size="small" type="text" onClick={() => set(grantNone(idx, checked))} data-testid="grant-none">
                {t('role.form.clear')}
              </Button>
            </>
          ) : null}
        </Space>
      </Flex>
      <div className="jur-grant-tree">
        {items.length ? (
          <Tree<TreeItem>
            checkable
            checkStrictly
            selectable={false}
            blockNode
            treeData={items}
            checkedKeys={{ checked: [...checked], halfChecked: [] }}
            expandedKeys={expandedKeys}
            onExpand={(keys) => {
              if (!keyword) setExpanded(keys);
            }}
            onCheck={(_, info) => set(toggleGrant(idx, checked, Number(info.node.key), info.checked))}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={keyword ? t('role.form.noMatch') : t('menu.noData')} />
        )}
      </div>
      <Typography.Text type="secondary" className="jur-grant-summary" data-testid="grant-summary">
        {t('role.form.summary', { pages: summary.pages, buttons: summary.buttons })}
      </Typography.Text>
    </div>
  );
}
