import type { ReactNode } from 'react';
import Button from 'antd/es/button';
import Space from 'antd/es/space';
import type { ButtonKey } from '@app/contract/routes';
import { useAccess } from '../lib/access';

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

/** The action links of a table row, each shown only when its `sign` is granted. */
export function RowActions({ actions }: { actions: RowAction[] }) {
  const { can } = useAccess();
  const visible = actions.filter((a) => !a.sign || can(a.sign));
  if (!visible.length) return null;
  return (
    <Space size={0} wrap={false}>
      {visible.map((a) => (
        <Button key={a.key} type="link" size="small" danger={a.danger} disabled={a.disabled} icon={a.icon} onClick={a.onClick} data-testid={`row-action-${a.key}`}>
          {a.label}
        </Button>
      ))}
    </Space>
  );
}
