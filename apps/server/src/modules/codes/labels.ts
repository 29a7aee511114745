import { type L10n, type Lang, pickText } from '@app/contract';
import { t } from '../../lib/labels';

/** Column titles and values of the exported files, in the reader's language. Times are UTC. */
export const LABELS = {
  code: t('激活码', 'Code', 'Código', 'コード'),
  codeMasked: t('激活码（部分隐藏）', 'Code (masked)', 'Código (oculto)', 'コード（一部非表示）'),
  batch: t('批次号', 'Batch', 'Lote', 'バッチ'),
  scope: t('类型', 'Scope', 'Ámbito', '種類'),
  grant: t('内容', 'Grants', 'Concede', '内容'),
  status: t('状态', 'Status', 'Estado', '状態'),
  owner: t('所属机构', 'Owner', 'Propietario', '所有機関'),
  validUntil: t('有效期至 (UTC)', 'Valid until (UTC)', 'Válido hasta (UTC)', '有効期限 (UTC)'),
  usedBy: t('使用者', 'Used by', 'Usado por', '使用者'),
  usedAt: t('使用时间 (UTC)', 'Used at (UTC)', 'Usado el (UTC)', '使用日時 (UTC)'),
  institution: t('机构', 'Institution', 'Institución', '機関'),
  device: t('设备', 'Device', 'Equipo', '機器'),
  termBefore: t('激活前到期 (UTC)', 'Term before (UTC)', 'Plazo anterior (UTC)', '適用前の期限 (UTC)'),
  termAfter: t('激活后到期 (UTC)', 'Term after (UTC)', 'Plazo posterior (UTC)', '適用後の期限 (UTC)'),
  usesBefore: t('激活前次数', 'Uses before', 'Usos antes', '適用前の回数'),
  usesAfter: t('激活后次数', 'Uses after', 'Usos después', '適用後の回数'),
  operator: t('操作人', 'Operator', 'Operador', '操作者'),
  created: t('生成时间 (UTC)', 'Created (UTC)', 'Creado (UTC)', '生成日時 (UTC)'),
  time: t('时间 (UTC)', 'Time (UTC)', 'Fecha (UTC)', '日時 (UTC)'),
  platform: t('平台', 'Platform', 'Plataforma', 'プラットフォーム'),
  days: t('{n} 天', '{n} days', '{n} días', '{n} 日'),
  uses: t('{n} 次', '{n} uses', '{n} usos', '{n} 回'),
  sheetCodes: t('激活码', 'Activation codes', 'Códigos', 'コード'),
  sheetRecords: t('激活记录', 'Activation records', 'Activaciones', 'アクティベーション記録'),
  scopes: { institution: t('机构', 'Institution', 'Institución', '機関'), device: t('设备', 'Device', 'Equipo', '機器') },
  statuses: {
    unused: t('未使用', 'Unused', 'Sin usar', '未使用'),
    used: t('已使用', 'Used', 'Usado', '使用済み'),
    void: t('已作废', 'Void', 'Anulado', '無効'),
    expired: t('已过期', 'Expired', 'Caducado', '期限切れ'),
  },
};

/** A label in a language, with `{n}` filled. */
export const label = (text: L10n, lang: Lang, n?: number) => pickText(text, lang).replace('{n}', n == null ? '' : String(n));
