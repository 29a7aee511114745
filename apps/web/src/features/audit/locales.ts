import { defineLocales } from '../../lib/i18n';

export default defineLocales({
  en: {
    title: 'Audit log',
    col: { time: 'Time', actor: 'Who', action: 'Action', record: 'Record', changed: 'Changed fields', ip: 'Address' },
    actorKind: { admin: 'Admin', institution: 'Institution', anonymous: 'Anonymous' },
    viewAs: 'viewing as {{role}}',
    filter: {
      actor: 'Who', actorPlaceholder: 'Account name', actorKind: 'Account type', recordType: 'Record type', recordId: 'Record ID',
      endpoint: 'Action', endpointPlaceholder: 'e.g. packages.edit', days: 'Days',
    },
    detail: {
      title: 'Audit entry #{{id}}', field: 'Field', before: 'Before', after: 'After', changedOnly: 'Only changed fields',
      noSnapshot: 'This action keeps no record snapshot: its input is shown below.', input: 'Input', loadFailed: 'The entry could not be loaded',
      created: 'Created', deleted: 'Removed', unchanged: 'No field changed',
    },
    action: { view: 'Details' },
    noData: 'No writes recorded yet',
  },
  zh: {
    title: '审计日志',
    col: { time: '时间', actor: '操作人', action: '操作', record: '记录', changed: '变更字段', ip: '地址' },
    actorKind: { admin: '管理员', institution: '机构', anonymous: '匿名' },
    viewAs: '以 {{role}} 身份查看',
    filter: {
      actor: '操作人', actorPlaceholder: '账号名', actorKind: '账号类型', recordType: '记录类型', recordId: '记录 ID',
      endpoint: '操作', endpointPlaceholder: '如 packages.edit', days: '日期',
    },
    detail: {
      title: '审计记录 #{{id}}', field: '字段', before: '修改前', after: '修改后', changedOnly: '只看变更字段',
      noSnapshot: '此操作不保存记录快照，下面是它的输入。', input: '输入', loadFailed: '无法加载该记录',
      created: '新建', deleted: '已删除', unchanged: '没有字段变化',
    },
    action: { view: '详情' },
    noData: '还没有写操作记录',
  },
  es: {
    title: 'Registro de auditoría',
    col: { time: 'Fecha', actor: 'Quién', action: 'Acción', record: 'Registro', changed: 'Campos cambiados', ip: 'Dirección' },
    actorKind: { admin: 'Administrador', institution: 'Institución', anonymous: 'Anónimo' },
    viewAs: 'viendo como {{role}}',
    filter: {
      actor: 'Quién', actorPlaceholder: 'Nombre de cuenta', actorKind: 'Tipo de cuenta', recordType: 'Tipo de registro', recordId: 'ID de registro',
      endpoint: 'Acción', endpointPlaceholder: 'p. ej. packages.edit', days: 'Días',
    },
    detail: {
      title: 'Entrada de auditoría #{{id}}', field: 'Campo', before: 'Antes', after: 'Después', changedOnly: 'Solo campos cambiados',
      noSnapshot: 'Esta acción no guarda una instantánea del registro: abajo se muestra su entrada.', input: 'Entrada', loadFailed: 'No se pudo cargar la entrada',
      created: 'Creado', deleted: 'Eliminado', unchanged: 'Ningún campo cambió',
    },
    action: { view: 'Detalles' },
    noData: 'Aún no hay escrituras registradas',
  },
  ja: {
    title: '監査ログ',
    col: { time: '日時', actor: '操作者', action: '操作', record: 'レコード', changed: '変更された項目', ip: 'アドレス' },
    actorKind: { admin: '管理者', institution: '機関', anonymous: '匿名' },
    viewAs: '{{role}} として表示中',
    filter: {
      actor: '操作者', actorPlaceholder: 'アカウント名', actorKind: 'アカウント種別', recordType: 'レコード種別', recordId: 'レコード ID',
      endpoint: '操作', endpointPlaceholder: '例: packages.edit', days: '日付',
    },
    detail: {
      title: '監査エントリ #{{id}}', field: '項目', before: '変更前', after: '変更後', changedOnly: '変更された項目のみ',
      noSnapshot: 'この操作はレコードのスナップショットを保存しません。入力内容を下に表示します。', input: '入力', loadFailed: 'エントリを読み込めませんでした',
      created: '作成', deleted: '削除済み', unchanged: '変更された項目はありません',
    },
    action: { view: '詳細' },
    noData: '書き込みの記録はまだありません',
  },
});
