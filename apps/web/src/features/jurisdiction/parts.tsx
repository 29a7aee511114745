/** Small pieces shared by the three pages of this feature. */
import { useCallback, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import LockOutlined from '@ant-design/icons/es/icons/LockOutlined';
import { useTranslation } from 'react-i18next';
import type { MenuType } from '@app/contract/api/jurisdiction';
import type { Why } from '@app/contract/api/jurisdiction-rules';
import type { ButtonKey } from '@app/contract/routes';
import { ActionMenu, useRowActionsMode } from '../../components/list';
import { useAccess } from '../../lib/access';

const TYPE_KEY: Record<MenuType, 'directory' | 'page' | 'button'> = { 1: 'directory', 2: 'page', 3: 'button' };
const TYPE_COLOR: Record<MenuType, string> = { 1: 'blue', 2: 'green', 3: 'orange' };

export const menuTypeKey = (type: MenuType) => TYPE_KEY[type];

/** Directory / page / button, always in the same colours. */
export function MenuTypeTag({ type }: { type: MenuType }) {
  const { t } = useTranslation('jurisdiction');
  return (
    <Tag color={TYPE_COLOR[type]} variant="outlined" className="jur-type-tag" data-testid={`type-${TYPE_KEY[type]}`}>
      {t(`type.${TYPE_KEY[type]}`)}
    </Tag>
  );
}

/** The lock shown on built-in menu nodes and on the super-admin role, with a tooltip that says why. */
export function LockBadge({ title, testId }: { title: ReactNode; testId?: string }) {
  return (
    <Tooltip title={title}>
      <LockOutlined className="jur-lock" aria-label={typeof title === 'string' ? title : undefined} data-testid={testId ?? 'lock-badge'} />
    </Tooltip>
  );
}

/** The text of a refusal reason. */
export function useWhy() {
  const { t } = useTranslation('jurisdiction');
  return useCallback((why: Why | null, params?: Record<string, unknown>) => (why ? t(`why.${why}`, params) : null), [t]);
}

export interface ActionLink {
  key: string;
  label: ReactNode;
  /** Button key of routes.ts; the link is left out when the viewer lacks it. */
  sign: ButtonKey;
  onClick: () => void;
  danger?: boolean;
  icon?: ReactNode;
  /** Shown but disabled, with this text as the tooltip. */
  disabledReason?: string | null;
  loading?: boolean;
}

/**
 * Row actions like components/RowActions, plus a tooltip saying why an action is disabled
 * (RowActions has `disabled` but no way to explain it).
 */
export function ActionLinks({ actions }: { actions: ActionLink[] }) {
  const { can } = useAccess();
  const mode = useRowActionsMode();
  const visible = actions.filter((a) => can(a.sign));
  if (!visible.length) return mode.mode === 'menu' ? null : <span className="text-muted">—</span>;
  if (mode.mode === 'menu') return <ActionMenu items={visible} rowName={mode.rowName} />;
  return (
    <Space size={0} wrap={false} className="jur-actions">
      {visible.map((a) => {
        const btn = (
          <Button key={a.key} type="link" size="small" danger={a.danger} icon={a.icon} disabled={!!a.disabledReason} loading={a.loading} onClick={a.onClick} data-testid={`row-action-${a.key}`}>
            {a.label}
          </Button>
        );
        return a.disabledReason ? (
          <Tooltip key={a.key} title={a.disabledReason}>
            {btn}
          </Tooltip>
        ) : (
          btn
        );
      })}
    </Space>
  );
}
