import type { ReactNode } from 'react';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import Space from 'antd/es/space';
import DownOutlined from '@ant-design/icons/es/icons/DownOutlined';
import type { ButtonKey } from '@app/contract/routes';
import { useAccess } from '../lib/access';
import { ActionMenu, useRowActionsMode } from './list/ActionMenu';

export interface RowAction {
  key: string;
  label: ReactNode;
  /** Button key checked with useAccess().can; the action is left out when not allowed. */
  sign?: ButtonKey;
  onClick: () => void;
  danger?: boolean;
  disabled?: boolean;
  icon?: ReactNode;
}

/**
 * The action links of a table row, each shown only when its `sign` is granted, and the secondary ones
 * (`more`) behind a "More" link; on a phone's card, all of them in one menu.
 */
export function RowActions({ actions, more }: { actions: RowAction[]; more?: { label: ReactNode; actions: RowAction[] } }) {
  const { can } = useAccess();
  const mode = useRowActionsMode();
  const allowed = (a: RowAction) => !a.sign || can(a.sign);
  const visible = actions.filter(allowed);
  const secondary = more?.actions.filter(allowed) ?? [];
  if (!visible.length && !secondary.length) return null;
  if (mode.mode === 'menu') return <ActionMenu items={[...visible, ...secondary]} rowName={mode.rowName} />;
  return (
    <Space size={0} wrap={false}>
      {visible.map((a) => (
        <Button key={a.key} type="link" size="small" danger={a.danger} disabled={a.disabled} icon={a.icon} onClick={a.onClick} data-testid={`row-action-${a.key}`}>
          {a.label}
        </Button>
      ))}
      {secondary.length ? (
        <Dropdown
          trigger={['click']}
          menu={{
            items: secondary.map((a) => ({ key: a.key, danger: a.danger, disabled: a.disabled, label: <span data-testid={`row-more-${a.key}`}>{a.label}</span>, onClick: a.onClick })),
          }}
        >
          <Button type="link" size="small" data-testid="row-action-more">
            {more?.label} <DownOutlined />
          </Button>
        </Dropdown>
      ) : null}
    </Space>
  );
}
