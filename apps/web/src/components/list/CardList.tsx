/**
 * A list's rows as cards, for phones (ListPage shows it below 576 px instead of the table): each card has
 * the row's title, status and two or three fields from the list's own columns (card-spec.ts), the row's
 * actions in one menu, and, when the page says what opening a row means (`onOpen`), the whole card is
 * that button. Tree lists (rows with `children`) expand under their card; selectable lists get a checkbox.
 */
import { useState, type Key, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Spin from 'antd/es/spin';
import type { ColumnsType } from 'antd/es/table';
import type { TableRowSelection, ExpandableConfig } from 'antd/es/table/interface';
import DownOutlined from '@ant-design/icons/es/icons/DownOutlined';
import RightOutlined from '@ant-design/icons/es/icons/RightOutlined';
import { useTranslation } from 'react-i18next';
import { cardSpec, cellOf, plainTitle, rowKeyOf, type CardSpec } from './card-spec';
import { RowActionsMode } from './ActionMenu';
import './mobile.css';

export interface CardListProps<Row extends object> {
  columns: ColumnsType<Row>;
  rows: readonly Row[];
  rowKey: string | ((row: Row) => Key);
  loading?: boolean;
  /** Shown when there are no rows (ListEmpty). */
  empty: ReactNode;
  /** What tapping a card does: open the row's detail or its main action. */
  onOpen?: (row: Row) => void;
  expandable?: ExpandableConfig<Row>;
  rowSelection?: TableRowSelection<Row>;
  label?: string;
}

export function CardList<Row extends object>(props: CardListProps<Row>) {
  const { columns, rows, loading, empty, label } = props;
  const spec = cardSpec(columns);
  const [ownExpanded, setOwnExpanded] = useState<Key[]>([]);
  const expandedKeys = props.expandable?.expandedRowKeys ?? ownExpanded;
  const toggle = (row: Row, open: boolean) => {
    const key = rowKeyOf(props.rowKey, row);
    if (!props.expandable?.expandedRowKeys) setOwnExpanded((keys) => (open ? [...keys, key] : keys.filter((k) => k !== key)));
    props.expandable?.onExpand?.(open, row);
    props.expandable?.onExpandedRowsChange?.(open ? [...expandedKeys, key] : expandedKeys.filter((k) => k !== key));
  };
  const ctx: CardContext<Row> = { spec, props, expandedKeys, toggle, depth: 0 };
  return (
    <Spin spinning={!!loading}>
      {rows.length ? (
        <ul className="card-list" aria-label={label} data-testid="card-list">
          {rows.map((row, i) => (
            <Card key={rowKeyOf(props.rowKey, row)} row={row} index={i} ctx={ctx} />
          ))}
        </ul>
      ) : (
        <div className="card-list-empty">{empty}</div>
      )}
    </Spin>
  );
}

interface CardContext<Row extends object> {
  spec: CardSpec<Row>;
  props: CardListProps<Row>;
  expandedKeys: readonly Key[];
  toggle: (row: Row, open: boolean) => void;
  depth: number;
}

function Card<Row extends object>({ row, index, ctx }: { row: Row; index: number; ctx: CardContext<Row> }) {
  const { t } = useTranslation();
  const { spec, props } = ctx;
  const key = rowKeyOf(props.rowKey, row);
  const name = plainTitle(spec, row);
  const title = spec.title ? cellOf(spec.title.column, row, index) : null;
  const status = spec.status ? cellOf(spec.status.column, row, index) : null;
  const actions = spec.actions ? cellOf(spec.actions.column, row, index) : null;
  const childrenName = (props.expandable?.childrenColumnName ?? 'children') as keyof Row;
  const kids = row[childrenName] as unknown as Row[] | undefined;
  const expandable = Array.isArray(kids) && (props.expandable?.rowExpandable?.(row) ?? true);
  const open = expandable && ctx.expandedKeys.includes(key);
  const sel = props.rowSelection;
  const checkbox = sel ? (sel.getCheckboxProps?.(row) ?? {}) : null;
  const selected = !!sel?.selectedRowKeys?.includes(key);
  const select = (on: boolean) => {
    if (!sel) return;
    const keys = on ? [...(sel.selectedRowKeys ?? []), key] : (sel.selectedRowKeys ?? []).filter((k) => k !== key);
    const all = flatten(props.rows, childrenName);
    const chosen = all.filter((r) => keys.includes(rowKeyOf(props.rowKey, r)));
    sel.onChange?.(keys, chosen, { type: 'single' });
  };
  const onOpen = props.onOpen;

  return (
    <li className={`list-card-item${onOpen ? ' is-openable' : ''}${selected ? ' is-selected' : ''}`} data-testid="list-card" data-row-key={String(key)}>
      <div className="card-head">
        {checkbox ? (
          <Checkbox
            className="card-select"
            checked={selected}
            disabled={checkbox.disabled}
            onChange={(e) => select(e.target.checked)}
            aria-label={name ? t('phone.selectRow', { name }) : t('phone.select')}
          />
        ) : null}
        <div className="card-title">
          {onOpen ? (
            <button type="button" className="card-open" onClick={() => onOpen(row)} data-testid="card-open">
              {title}
            </button>
          ) : (
            title
          )}
        </div>
        {status != null && status !== false ? <div className="card-status">{status}</div> : null}
        {actions ? (
          <div className="card-actions">
            <RowActionsMode.Provider value={{ mode: 'menu', rowName: name }}>{actions}</RowActionsMode.Provider>
          </div>
        ) : null}
      </div>
      {spec.fields.length ? (
        <dl className="card-fields">
          {spec.fields.map((f) => (
            <div className="card-field" key={f.key}>
              <dt>{f.label}</dt>
              <dd>{cellOf(f.column, row, index)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {expandable ? (
        <>
          <Button
            type="link"
            size="small"
            className="card-expand"
            icon={open ? <DownOutlined /> : <RightOutlined />}
            aria-expanded={open}
            onClick={() => ctx.toggle(row, !open)}
            data-testid="card-expand"
          >
            {open ? t('phone.hideChildren') : t('phone.showChildren')}
          </Button>
          {open && kids?.length ? (
            <ul className="card-list card-children">
              {kids.map((kid, i) => (
                <Card key={rowKeyOf(props.rowKey, kid)} row={kid} index={i} ctx={{ ...ctx, depth: ctx.depth + 1 }} />
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </li>
  );
}

function flatten<Row extends object>(rows: readonly Row[], childrenName: keyof Row): Row[] {
  return rows.flatMap((r) => {
    const kids = r[childrenName] as unknown as Row[] | undefined;
    return [r, ...(Array.isArray(kids) ? flatten(kids, childrenName) : [])];
  });
}
