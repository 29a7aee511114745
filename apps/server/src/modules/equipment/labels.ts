import { label, t } from '../../lib/labels';

export { label };

/** Column titles and values of the exported device list, in the reader's language. Times are UTC. */
export const LABELS = {
  serial: t('序列号', 'Serial', 'N.º de serie', 'シリアル番号'),
  name: t('名称', 'Name', 'Nombre', '名称'),
  model: t('型号', 'Model', 'Modelo', '型番'),
  status: t('状态', 'Status', 'Estado', '状態'),
  institution: t('所属机构', 'Institution', 'Institución', '所属機関'),
  stock: t('平台库存', 'Platform stock', 'Stock de la plataforma', 'プラットフォーム在庫'),
  activatedAt: t('激活时间 (UTC)', 'Activated (UTC)', 'Activado (UTC)', '有効化日時 (UTC)'),
  expiresAt: t('到期时间 (UTC)', 'Expires (UTC)', 'Vence (UTC)', '有効期限 (UTC)'),
  remainingUses: t('剩余次数', 'Uses left', 'Usos restantes', '残り回数'),
  totalInspections: t('检测次数', 'Inspections', 'Inspecciones', '検査回数'),
  lastSeenAt: t('最后在线 (UTC)', 'Last seen (UTC)', 'Última conexión (UTC)', '最終接続 (UTC)'),
  createdAt: t('创建时间 (UTC)', 'Created (UTC)', 'Creado (UTC)', '作成日時 (UTC)'),
  remark: t('备注', 'Remark', 'Observación', '備考'),
  sheet: t('设备列表', 'Devices', 'Equipos', '機器一覧'),
  statuses: {
    inactive: t('未激活', 'Inactive', 'Inactivo', '未有効化'),
    active: t('已激活', 'Active', 'Activo', '有効'),
    disabled: t('已停用', 'Disabled', 'Desactivado', '無効'),
  },
};
