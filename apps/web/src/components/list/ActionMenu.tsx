/**
 * A row's actions as one menu: how a card (components/list/CardList.tsx) shows them on a phone. The row
 * action components (components/RowActions, the jurisdiction pages' ActionLinks) render this instead of
 * their links when they find themselves inside a card (`RowActionsMode`).
 */
import { createContext, useContext, useState, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import Space from 'antd/es/space';
import type { MenuProps } from 'antd';
import MoreOutlined from '@ant-design/icons/es/icons/MoreOutlined';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/** Where row actions are drawn: in a table row (links) or on a card (one menu, named after the row). */
export interface RowActionsModeValue {
  mode: 'inline' | 'menu';
  /** The row's plain title ("SN-0001"), for the menu's accessible name. */
  rowName?: string;
}
export const RowActionsMode = createContext<RowActionsModeValue>({ mode: 'inline' });
export const useRowActionsMode = () => useContext(RowActionsMode);

export interface ActionMenuItem {
  key: string;
  label: ReactNode;
  onClick?: () => void;
  /** A page inside the app: the item navigates there. */
  to?: string;
  danger?: boolean;
  disabled?: boolean;
  /** Said under a disabled item's label (why it cannot be used). */
  disabledReason?: string | null;
}

/** The "⋮" button of a card and its menu; `testId`s keep the row action's own (`row-action-<key>`). */
export function ActionMenu({ items, rowName, testId = 'card-actions' }: { items: ActionMenuItem[]; rowName?: string; testId?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  if (!items.length) return null;
  const label = rowName ? t('phone.rowActionsOf', { name: rowName }) : t('phone.rowActions');
  const menu: MenuProps = {
    items: items.map((a) => ({
      key: a.key,
      danger: a.danger,
      disabled: a.disabled || !!a.disabledReason,
      label: (
        <span className="action-menu-item" data-testid={`row-action-${a.key}`}>
          {a.label}
          {a.disabledReason ? <span className="action-menu-reason">{a.disabledReason}</span> : null}
        </span>
      ),
    })),
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      const item = items.find((a) => a.key === key);
      if (!item) return;
      if (item.to) navigate(item.to);
      else item.onClick?.();
    },
  };
  return (
    <Dropdown trigger={['click']} menu={menu} placement="bottomRight" onOpenChange={setOpen}>
      <Button
        type="text"
        className="card-actions-button"
        icon={<MoreOutlined />}
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={(e) => e.stopPropagation()}
        data-testid={testId}
      />
    </Dropdown>
  );
}

export interface RowLink {
  key: string;
  label: ReactNode;
  to: string;
  testId?: string;
}

/** A row's actions that are pages (a report, a result): links in a table row, the menu on a card. */
export function RowLinks({ links }: { links: RowLink[] }) {
  const mode = useRowActionsMode();
  if (mode.mode === 'menu') return <ActionMenu items={links} rowName={mode.rowName} />;
  return (
    <Space size={12}>
      {links.map((l) => (
        <Link key={l.key} to={l.to} data-testid={l.testId}>
          {l.label}
        </Link>
      ))}
    </Space>
  );
}
