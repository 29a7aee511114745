import Avatar from 'antd/es/avatar';
import Dropdown from 'antd/es/dropdown';
import DashboardOutlined from '@ant-design/icons/es/icons/DashboardOutlined';
import DownOutlined from '@ant-design/icons/es/icons/DownOutlined';
import KeyOutlined from '@ant-design/icons/es/icons/KeyOutlined';
import LogoutOutlined from '@ant-design/icons/es/icons/LogoutOutlined';
import SafetyOutlined from '@ant-design/icons/es/icons/SafetyOutlined';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../lib/session';
import { logout } from '../lib/auth';
import { useUi } from '../lib/ui';

export function UserDropdown({ compact }: { compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const name = useSession((s) => s.name || s.username);
  const avatar = useSession((s) => s.avatar);
  const set = useUi((s) => s.set);
  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items: [
          { key: 'dashboard', icon: <DashboardOutlined />, label: <span data-testid="user-menu-dashboard">{t('nav.dashboard')}</span> },
          { key: 'security', icon: <SafetyOutlined />, label: <span data-testid="user-menu-security">{t('nav.security')}</span> },
          { key: 'password', icon: <KeyOutlined />, label: <span data-testid="user-menu-password">{t('nav.changePassword')}</span> },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, danger: true, label: <span data-testid="user-menu-logout">{t('nav.logout')}</span> },
        ],
        onClick: async ({ key }) => {
          if (key === 'dashboard') navigate('/dashboard/index');
          if (key === 'security') navigate('/account/security');
          if (key === 'password') set({ passwordOpen: true });
          if (key === 'logout') {
            await logout();
            navigate('/login', { replace: true });
          }
        },
      }}
    >
      <button
        type="button"
        className="user-dropdown"
        aria-labelledby={compact ? undefined : 'user-menu-name user-menu-label'}
        aria-label={compact ? t('nav.userMenu') : undefined}
        aria-haspopup="menu"
        data-testid="user-dropdown"
      >
        <span id="user-menu-label" className="sr-only">
          {t('nav.userMenu')}
        </span>
        <Avatar size={30} src={avatar || undefined} icon={<UserOutlined />} alt="" className="user-avatar" data-testid="user-avatar" />
        {!compact ? (
          // The account's name is data, not interface text (translate="no").
          <span id="user-menu-name" className="user-name" translate="no">
            {name}
          </span>
        ) : null}
        <DownOutlined className="user-caret" aria-hidden />
      </button>
    </Dropdown>
  );
}
