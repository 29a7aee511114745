import { label, t } from '../../lib/labels';

export { label };

/** Column titles and values of the exported institution list, in the reader's language. Times are UTC. */
export const LABELS = {
  name: t('机构名称', 'Name', 'Nombre', '機関名'),
  grade: t('等级', 'Grade', 'Grado', '等級'),
  parent: t('上级机构', 'Parent', 'Superior', '上位機関'),
  username: t('账号', 'Account', 'Cuenta', 'アカウント'),
  contact: t('联系人', 'Contact', 'Contacto', '担当者'),
  phone: t('联系电话', 'Phone', 'Teléfono', '電話番号'),
  region: t('地区', 'Region', 'Región', '地域'),
  address: t('地址', 'Address', 'Dirección', '住所'),
  status: t('状态', 'Status', 'Estado', '状態'),
  termExpiresAt: t('服务到期 (UTC)', 'Term ends (UTC)', 'Fin del plazo (UTC)', '契約期限 (UTC)'),
  children: t('下级数', 'Children', 'Subordinadas', '下位機関数'),
  createdAt: t('创建时间 (UTC)', 'Created (UTC)', 'Creado (UTC)', '作成日時 (UTC)'),
  sheet: t('机构列表', 'Institutions', 'Instituciones', '機関一覧'),
  statuses: { enabled: t('启用', 'Enabled', 'Activa', '有効'), disabled: t('停用', 'Disabled', 'Desactivada', '無効') },
};
