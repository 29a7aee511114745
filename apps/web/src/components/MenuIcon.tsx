import type { ComponentType } from 'react';
import AimOutlined from '@ant-design/icons/es/icons/AimOutlined';
import ApartmentOutlined from '@ant-design/icons/es/icons/ApartmentOutlined';
import AppstoreOutlined from '@ant-design/icons/es/icons/AppstoreOutlined';
import AuditOutlined from '@ant-design/icons/es/icons/AuditOutlined';
import BarChartOutlined from '@ant-design/icons/es/icons/BarChartOutlined';
import ClusterOutlined from '@ant-design/icons/es/icons/ClusterOutlined';
import DesktopOutlined from '@ant-design/icons/es/icons/DesktopOutlined';
import FileSearchOutlined from '@ant-design/icons/es/icons/FileSearchOutlined';
import GiftOutlined from '@ant-design/icons/es/icons/GiftOutlined';
import KeyOutlined from '@ant-design/icons/es/icons/KeyOutlined';
import LockOutlined from '@ant-design/icons/es/icons/LockOutlined';
import MedicineBoxOutlined from '@ant-design/icons/es/icons/MedicineBoxOutlined';
import MoneyCollectOutlined from '@ant-design/icons/es/icons/MoneyCollectOutlined';
import PictureOutlined from '@ant-design/icons/es/icons/PictureOutlined';
import SettingOutlined from '@ant-design/icons/es/icons/SettingOutlined';
import SwapOutlined from '@ant-design/icons/es/icons/SwapOutlined';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';

/** Menu icon names (routes.ts / menu editor) -> icon components. Unknown names get a neutral icon. */
const ICONS: Record<string, ComponentType> = {
  chart: BarChartOutlined,
  device: DesktopOutlined,
  apartment: ApartmentOutlined,
  gift: GiftOutlined,
  money: MoneyCollectOutlined,
  key: KeyOutlined,
  swap: SwapOutlined,
  doctor: MedicineBoxOutlined,
  user: UserOutlined,
  inspection: FileSearchOutlined,
  tree: ClusterOutlined,
  aim: AimOutlined,
  picture: PictureOutlined,
  lock: LockOutlined,
  setting: SettingOutlined,
  audit: AuditOutlined,
};

export const MENU_ICON_NAMES = Object.keys(ICONS);

export function MenuIcon({ name }: { name?: string | null }) {
  const Icon = (name && ICONS[name]) || AppstoreOutlined;
  return <Icon />;
}
