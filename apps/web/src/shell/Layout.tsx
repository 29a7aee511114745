/**
 * The admin shell (spec §2): sidebar (210 px, collapsible, a drawer under 992 px), navbar, tags view,
 * content with kept-alive pages, settings drawer, error log, change-password dialog.
 */
import { lazy, Suspense, useEffect, useMemo, useState, type ComponentType } from 'react';
import AntLayout from 'antd/es/layout';
import { useLocation } from 'react-router';
import { SIDEBAR_WIDTH } from '@app/contract/constants';
import { useAccessModel } from '../lib/access';
import { useSettings } from '../lib/settings';
import { useTabs } from '../lib/tabs';
import { useUi } from '../lib/ui';
import { useIsMobile } from '../lib/media';
import { Sidebar } from './Sidebar';
import { Navbar } from './Navbar';
import { TagsView } from './TagsView';
import { KeepAlive } from './KeepAlive';
import { ContentRoutes } from './ContentRoutes';
import { OverdueNotice } from './OverdueNotice';
import { useSiteTitle } from '../lib/site-title';
import { matchPage } from './route-match';
import { AppFrame } from './AppFrame';
import { ReauthDialog } from './ReauthDialog';
import '../lib/dayjs-locale';

const COLLAPSED_WIDTH = 64;

// Parts the first screen does not show load on first use.
const SettingsDrawer = lazy(() => import('./SettingsDrawer'));
const ErrorLogDialog = lazy(() => import('./ErrorLogDialog'));
const ChangePasswordDialog = lazy(() => import('./ChangePassword'));
const MobileSidebar = lazy(() => import('./MobileSidebar'));

/** Mounts a lazy part the first time `open` is true, then keeps it (so closing animates). */
function OnDemand({ open, component: C }: { open: boolean; component: ComponentType }) {
  const [used, setUsed] = useState(open);
  useEffect(() => {
    if (open) setUsed(true);
  }, [open]);
  return used || open ? (
    <Suspense fallback={null}>
      <C />
    </Suspense>
  ) : null;
}

/** The shell inside antd's App and the query cache (both loaded with the shell, not the login page). */
export default function Layout() {
  return (
    <AppFrame>
      <Shell />
    </AppFrame>
  );
}

function Shell() {
  const access = useAccessModel();
  const location = useLocation();
  const isMobile = useIsMobile();
  const opened = useSettings((s) => s.sidebarOpened);
  const tagsView = useSettings((s) => s.tagsView);
  const fixedHeader = useSettings((s) => s.fixedHeader);
  const mobileMenuOpen = useUi((s) => s.mobileMenuOpen);
  const settingsOpen = useUi((s) => s.settingsOpen);
  const errorLogOpen = useUi((s) => s.errorLogOpen);
  const passwordOpen = useUi((s) => s.passwordOpen);
  const setUi = useUi((s) => s.set);

  const match = useMemo(() => matchPage(location.pathname, access.pages), [location.pathname, access.pages]);

  // Affix tabs (the home page) are always there.
  useEffect(() => {
    useTabs.getState().ensureAffix(access.pages.filter((p) => p.affix && !p.path.includes(':')).map((p) => ({ key: p.path, name: p.name })));
  }, [access.pages]);

  // Record the visit (tab + kept page), close the mobile drawer, set the document title.
  useEffect(() => {
    if (match) useTabs.getState().visit({ key: location.pathname, name: match.route.name, location: { ...location } });
    setUi({ mobileMenuOpen: false });
  }, [location, match, setUi]);

  // The page's own title for its tab (useTabTitle), else the route's.
  const ownTitle = useTabs((s) => s.titles[location.pathname]);
  const pageTitle = match ? (ownTitle ?? access.title(match.route.name)) : '';
  const siteTitle = useSiteTitle();
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} - ${siteTitle}` : siteTitle;
  }, [pageTitle, siteTitle]);

  const collapsed = !isMobile && !opened;
  const siderWidth = collapsed ? COLLAPSED_WIDTH : SIDEBAR_WIDTH;

  return (
    <AntLayout className={`app-layout${isMobile ? ' is-mobile' : ''}`} hasSider={!isMobile}>
      {isMobile ? (
        <Suspense fallback={null}>
          <MobileSidebar access={access} open={mobileMenuOpen} onClose={() => setUi({ mobileMenuOpen: false })} />
        </Suspense>
      ) : (
        <AntLayout.Sider className="app-sider" width={SIDEBAR_WIDTH} collapsedWidth={COLLAPSED_WIDTH} collapsed={collapsed} trigger={null} data-testid="sidebar">
          <Sidebar access={access} collapsed={collapsed} />
        </AntLayout.Sider>
      )}
      <AntLayout className="app-main" style={{ marginInlineStart: isMobile ? 0 : siderWidth }}>
        <header className={`app-header${fixedHeader ? ' is-fixed' : ''}`}>
          <Navbar access={access} isMobile={isMobile} title={pageTitle} />
          {tagsView ? <TagsView access={access} /> : null}
        </header>
        <AntLayout.Content className="app-content" id="main-content">
          <OverdueNotice />
          {/* One heading 1 per page for screen readers (the breadcrumb shows the same title). */}
          <h1 className="sr-only" data-testid="page-heading">
            {pageTitle}
          </h1>
          <ContentRoutes routes={access.routes} pages={access.pages} />
          <KeepAlive pages={access.pages} />
        </AntLayout.Content>
      </AntLayout>
      <OnDemand open={settingsOpen} component={SettingsDrawer} />
      <OnDemand open={errorLogOpen} component={ErrorLogDialog} />
      <OnDemand open={passwordOpen} component={ChangePasswordDialog} />
      <ReauthDialog />
    </AntLayout>
  );
}
