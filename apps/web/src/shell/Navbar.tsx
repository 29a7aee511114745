import Button from 'antd/es/button';
import Tooltip from 'antd/es/tooltip';
import MenuFoldOutlined from '@ant-design/icons/es/icons/MenuFoldOutlined';
import MenuUnfoldOutlined from '@ant-design/icons/es/icons/MenuUnfoldOutlined';
import SettingOutlined from '@ant-design/icons/es/icons/SettingOutlined';
import { useTranslation } from 'react-i18next';
import type { AccessModel } from '../lib/access';
import { useSettings } from '../lib/settings';
import { useUi } from '../lib/ui';
import { LangPicker } from '../components/LangPicker';
import { ViewAsReturn } from '../components/ViewAsReturn';
import { NavBreadcrumb } from './Breadcrumb';
import { MenuSearch } from './MenuSearch';
import { ErrorLogButton } from './ErrorLogButton';
import { FullscreenToggle } from './Fullscreen';
import { SizePicker } from './SizePicker';
import { UserDropdown } from './UserDropdown';
import { NoticeBell } from '../features/notices/NoticeBell';
import { useSession } from '../lib/session';

export function Navbar({ access, isMobile, title }: { access: AccessModel; isMobile: boolean; title: string }) {
  const { t } = useTranslation();
  const opened = useSettings((s) => s.sidebarOpened);
  const toggleSidebar = useSettings((s) => s.toggleSidebar);
  const setUi = useUi((s) => s.set);
  const mobileOpen = useUi((s) => s.mobileMenuOpen);
  const expanded = isMobile ? mobileOpen : opened;
  // A restricted session (an overdue institution, an admin who must set up a second factor) has no notices.
  const noticesOpen = useSession((s) => !s.showOverdue && !s.mfaSetupRequired && !!s.token);

  return (
    <div className="navbar" data-testid="navbar">
      <div className="navbar-left">
        <Tooltip title={t('nav.toggleSidebar')}>
          <Button
            type="text"
            className="hamburger"
            aria-label={t('nav.toggleSidebar')}
            aria-expanded={expanded}
            icon={(isMobile ? false : opened) ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
            onClick={() => (isMobile ? setUi({ mobileMenuOpen: true }) : toggleSidebar())}
            data-testid="hamburger"
          />
        </Tooltip>
        {!isMobile ? <NavBreadcrumb access={access} /> : <span className="navbar-title">{title}</span>}
        <ViewAsReturn className="navbar-view-as" />
      </div>
      <div className="navbar-right">
        <MenuSearch access={access} />
        {noticesOpen ? <NoticeBell /> : null}
        <ErrorLogButton />
        {!isMobile ? <FullscreenToggle /> : null}
        <SizePicker />
        <LangPicker />
        <Tooltip title={t('nav.settings')}>
          <Button type="text" aria-label={t('nav.settings')} icon={<SettingOutlined />} onClick={() => setUi({ settingsOpen: true })} data-testid="settings-button" />
        </Tooltip>
        <UserDropdown compact={isMobile} />
      </div>
    </div>
  );
}
