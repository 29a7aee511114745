import Drawer from 'antd/es/drawer';
import { SIDEBAR_WIDTH } from '@app/contract/constants';
import type { AccessModel } from '../lib/access';
import { Sidebar } from './Sidebar';

/** Under 992 px the sidebar is a drawer that closes on navigation (spec §2, ui.md). */
export default function MobileSidebar({ access, open, onClose }: { access: AccessModel; open: boolean; onClose: () => void }) {
  return (
    <Drawer
      placement="left"
      open={open}
      onClose={onClose}
      size={SIDEBAR_WIDTH}
      closable={false}
      className="sidebar-drawer"
      styles={{ body: { padding: 0, background: '#001529' } }}
      data-testid="sidebar-drawer"
    >
      <Sidebar access={access} collapsed={false} onNavigate={onClose} />
    </Drawer>
  );
}
