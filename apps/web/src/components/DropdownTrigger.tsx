import { useState, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import Tooltip from 'antd/es/tooltip';
import type { MenuProps } from 'antd';

/**
 * An icon button that opens a menu, with a tooltip that steps aside while the menu is open (a tooltip
 * over the first item would hide it).
 */
export function DropdownTrigger({
  menu,
  icon,
  label,
  children,
  testId,
  className,
  placement,
  size,
}: {
  menu: MenuProps;
  icon: ReactNode;
  label: string;
  children?: ReactNode;
  testId?: string;
  className?: string;
  placement?: 'bottomLeft' | 'bottomRight' | 'bottom';
  size?: 'small' | 'middle' | 'large';
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dropdown trigger={['click']} menu={menu} placement={placement} onOpenChange={setOpen}>
      <Tooltip title={children ? undefined : label} open={open ? false : undefined}>
        <Button type="text" size={size} className={className} icon={icon} aria-label={label} aria-haspopup="menu" aria-expanded={open} data-testid={testId}>
          {children}
        </Button>
      </Tooltip>
    </Dropdown>
  );
}
