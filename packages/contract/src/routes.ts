import type { Grade } from './constants';
import type { L10n } from './i18n';

/** A button (type-3 menu node) of a page: its key is what roles grant and what the server checks. */
export interface ButtonDef {
  key: string;
  title: L10n;
  /** Institution grades that may use it (admins are governed by their role instead). */
  grades?: readonly Grade[];
}

export interface RouteDef {
  /** Unique route name; also the `sign` of its menu node. */
  name: string;
  /** Absolute path for pages; parents carry their prefix. */
  path: string;
  title: L10n;
  icon?: string;
  /** Grades that may see it; null = not restricted by grade (parents); [] = nobody through the menu. */
  grades: readonly Grade[] | null;
  roles?: readonly string[];
  hidden?: boolean;
  affix?: boolean;
  noCache?: boolean;
  breadcrumb?: boolean;
  redirect?: string;
  buttons?: readonly ButtonDef[];
  children?: readonly RouteDef[];
  /**
   * Every signed-in account's own page (its security: sessions, second factor): any session opens it,
   * whatever its role grants; it is no menu node, so no role grants or withholds it. Its calls check the
   * session alone and act on the caller's own account.
   */
  personal?: boolean;
}

const t = (zh: string, en: string, es: string, ja: string): L10n => ({ zh, en, es, ja });

const ALL: readonly Grade[] = [0, 1, 2, 3];
const B = {
  add: t('新增', 'Add', 'Añadir', '追加'),
  edit: t('编辑', 'Edit', 'Editar', '編集'),
  del: t('删除', 'Delete', 'Eliminar', '削除'),
  export: t('导出', 'Export', 'Exportar', 'エクスポート'),
};
/** The usual add / edit / delete buttons of a master-data page. */
const crud = <P extends string>(prefix: P, grades?: readonly Grade[]) =>
  [
    { key: `${prefix}:add` as const, title: B.add, grades },
    { key: `${prefix}:edit` as const, title: B.edit, grades },
    { key: `${prefix}:delete` as const, title: B.del, grades },
  ] as const;

export const ROUTES = [
  {
    name: 'Stats',
    path: '/stats',
    title: t('统计', 'Stats', 'Estadísticas', '統計'),
    icon: 'chart',
    grades: null,
    children: [
      { name: 'EquipmentStats', path: '/stats/equipment', title: t('设备统计', 'Device stats', 'Estadísticas de equipos', '機器統計'), grades: [0] },
      { name: 'ButionStats', path: '/stats/distribution', title: t('分销统计', 'Distribution stats', 'Estadísticas de distribución', '分配統計'), grades: [0], hidden: true },
      { name: 'InstitutionStats', path: '/stats/institution', title: t('机构统计', 'Institution stats', 'Estadísticas de instituciones', '機関統計'), grades: [0], hidden: true },
      { name: 'FinanceStats', path: '/stats/finance', title: t('财务统计', 'Finance stats', 'Estadísticas financieras', '財務統計'), grades: [1, 2], hidden: true },
    ],
  },
  {
    name: 'Dashboard',
    path: '/dashboard',
    redirect: '/dashboard/index',
    title: t('设备', 'Devices', 'Equipos', '機器'),
    icon: 'device',
    grades: null,
    children: [
      {
        name: 'DeviceList',
        path: '/dashboard/index',
        title: t('设备列表', 'Device list', 'Lista de equipos', '機器一覧'),
        icon: 'device',
        grades: ALL,
        affix: true,
        buttons: [
          { key: 'device:add', title: B.add },
          { key: 'device:edit', title: B.edit },
          { key: 'device:status', title: t('启用/停用', 'Enable/disable', 'Activar/desactivar', '有効/無効') },
          { key: 'device:distribute', title: t('分配', 'Distribute', 'Distribuir', '配布') },
          { key: 'device:export', title: B.export, grades: ALL },
        ],
      },
      { name: 'DeviceEndRecordOfDevice', path: '/dashboard/device-end-record/:id', title: t('支付记录', 'Payment records', 'Registros de pago', '支払記録'), grades: ALL, hidden: true },
    ],
  },
  {
    name: 'Institutional',
    path: '/institutional',
    redirect: '/institutional/index',
    title: t('机构', 'Institutions', 'Instituciones', '機関'),
    icon: 'apartment',
    grades: null,
    children: [
      {
        name: 'InstitutionList',
        path: '/institutional/index',
        title: t('机构列表', 'Institution list', 'Lista de instituciones', '機関一覧'),
        grades: ALL,
        buttons: [
          { key: 'institution:add', title: B.add, grades: [1, 2, 3] },
          { key: 'institution:edit', title: B.edit, grades: [1, 2, 3] },
          { key: 'institution:status', title: t('启用/停用', 'Enable/disable', 'Activar/desactivar', '有効/無効'), grades: [1, 2, 3] },
          { key: 'institution:password', title: t('重置密码', 'Reset password', 'Restablecer contraseña', 'パスワード再設定'), grades: [1, 2, 3] },
          { key: 'institution:move', title: t('调整上级', 'Move', 'Mover', '上位の変更') },
          { key: 'institution:export', title: B.export, grades: ALL },
        ],
      },
      {
        name: 'InspectionApply',
        path: '/institutional/inspection-apply',
        title: t('分支机构设置', 'Branch setup', 'Alta de sucursales', '支店設定'),
        grades: ALL,
        buttons: [
          { key: 'branch:apply', title: t('申请分支机构', 'Apply for a branch', 'Solicitar sucursal', '支店を申請'), grades: [1, 2, 3] },
          { key: 'branch:review', title: t('审核', 'Review', 'Revisar', '審査') },
        ],
      },
      {
        name: 'InstitutionEndRecord',
        path: '/institutional/institution-end-record',
        title: t('后台激活记录', 'Activation records', 'Registros de activación', 'アクティベーション記録'),
        grades: ALL,
        buttons: [{ key: 'activation_record:export', title: B.export, grades: ALL }],
      },
    ],
  },
  {
    name: 'PackageParent',
    path: '/package-manage',
    redirect: '/package-manage/index',
    title: t('套餐管理', 'Packages', 'Paquetes', 'パッケージ'),
    icon: 'gift',
    grades: null,
    children: [{ name: 'PackageManage', path: '/package-manage/index', title: t('套餐管理', 'Packages', 'Paquetes', 'パッケージ'), icon: 'gift', grades: [0], buttons: crud('package') }],
  },
  {
    name: 'FinanceRecord',
    path: '/finance-record',
    redirect: '/finance-record/index',
    title: t('财务', 'Finance', 'Finanzas', '財務'),
    icon: 'money',
    grades: null,
    children: [
      {
        name: 'FinanceRecordList',
        path: '/finance-record/index',
        title: t('财务记录', 'Finance records', 'Registros financieros', '財務記録'),
        grades: [0, 1, 2],
        buttons: [{ key: 'finance:export', title: B.export, grades: [0, 1, 2] }],
      },
      {
        name: 'PayoutManage',
        path: '/finance-record/payout-manage',
        title: t('提现管理', 'Payouts', 'Retiros', '出金管理'),
        grades: [0, 1, 2],
        buttons: [
          { key: 'payout:apply', title: t('申请提现', 'Apply for a payout', 'Solicitar retiro', '出金を申請'), grades: [1, 2] },
          { key: 'payout:cancel', title: t('撤销申请', 'Cancel application', 'Cancelar solicitud', '申請を取消'), grades: [1, 2] },
          { key: 'payout:review', title: t('审核提现', 'Review payouts', 'Revisar retiros', '出金を審査') },
          { key: 'payout:export', title: B.export, grades: [0, 1, 2] },
        ],
      },
      {
        name: 'DeviceEndRecord',
        path: '/finance-record/device-end-record',
        title: t('设备端支付记录', 'Device payments', 'Pagos en equipos', '機器側支払'),
        grades: [0, 1, 2],
        buttons: [
          { key: 'payment:refund', title: t('退款', 'Refund', 'Reembolsar', '返金') },
          { key: 'payment:export', title: B.export, grades: [0, 1, 2] },
        ],
      },
    ],
  },
  {
    name: 'ActivationParent',
    path: '/activation-code',
    redirect: '/activation-code/index',
    title: t('激活码', 'Activation codes', 'Códigos de activación', 'アクティベーションコード'),
    icon: 'key',
    grades: null,
    children: [
      {
        name: 'ActivationCode',
        path: '/activation-code/index',
        title: t('激活码', 'Activation codes', 'Códigos de activación', 'アクティベーションコード'),
        grades: [],
        buttons: [
          { key: 'activation:generate', title: t('生成激活码', 'Generate codes', 'Generar códigos', 'コード生成') },
          { key: 'activation:void', title: t('作废', 'Void', 'Anular', '無効化') },
          { key: 'activation:assign', title: t('分配给机构', 'Assign to institution', 'Asignar a institución', '機関に割り当て') },
          { key: 'activation:export', title: t('导出激活码', 'Export codes', 'Exportar códigos', 'コードをエクスポート') },
        ],
      },
    ],
  },
  {
    name: 'DistributionParent',
    path: '/distribution-record',
    redirect: '/distribution-record/index',
    title: t('分配记录', 'Distribution records', 'Registros de distribución', '配布記録'),
    icon: 'swap',
    grades: null,
    children: [
      {
        name: 'DistributionRecord',
        path: '/distribution-record/index',
        title: t('分配记录', 'Distribution records', 'Registros de distribución', '配布記録'),
        grades: [0],
        buttons: [{ key: 'distribution:export', title: B.export }],
      },
    ],
  },
  {
    name: 'Searchers',
    path: '/searchers',
    redirect: '/searchers/management',
    title: t('医生管理', 'Doctors', 'Médicos', '医師管理'),
    icon: 'doctor',
    grades: null,
    children: [
      {
        name: 'DoctorManage',
        path: '/searchers/management',
        title: t('医生管理', 'Doctors', 'Médicos', '医師管理'),
        icon: 'doctor',
        grades: [0],
        buttons: [...crud('doctor'), { key: 'doctor:export', title: B.export }],
      },
    ],
  },
  {
    name: 'UserParent',
    path: '/user',
    redirect: '/user/management',
    title: t('用户管理', 'Users', 'Usuarios', 'ユーザー管理'),
    icon: 'user',
    grades: null,
    children: [
      {
        name: 'UserManage',
        path: '/user/management',
        title: t('用户管理', 'Users', 'Usuarios', 'ユーザー管理'),
        icon: 'user',
        grades: [0],
        buttons: [...crud('user'), { key: 'user:detail', title: t('查看详情', 'View details', 'Ver detalles', '詳細表示') }, { key: 'user:export', title: B.export }],
      },
    ],
  },
  {
    name: 'Inspection',
    path: '/inspection',
    redirect: '/inspection/management',
    title: t('检测记录', 'Inspections', 'Inspecciones', '検査記録'),
    icon: 'inspection',
    grades: null,
    children: [
      {
        name: 'InspectionList',
        path: '/inspection/management',
        title: t('检测记录', 'Inspections', 'Inspecciones', '検査記録'),
        grades: ALL,
        buttons: [
          { key: 'inspection:recompute', title: t('重新分析', 'Recompute analysis', 'Recalcular análisis', '再分析'), grades: [] },
          { key: 'inspection:treat', title: t('记录治疗', 'Record treatment', 'Registrar tratamiento', '治療を記録'), grades: ALL },
          { key: 'inspection:export', title: B.export, grades: ALL },
          { key: 'inspection:share', title: t('与受检者分享', 'Share with the person', 'Compartir con la persona', '受検者と共有'), grades: ALL },
        ],
      },
      { name: 'InspectionReport', path: '/inspection/report/:id', title: t('检测报告', 'Report', 'Informe', 'レポート'), grades: ALL, hidden: true },
      { name: 'InspectionResult', path: '/inspection/result/:id', title: t('检测结果', 'Result', 'Resultado', '結果'), grades: ALL, hidden: true },
    ],
  },
  {
    name: 'Disease',
    path: '/disease',
    redirect: '/disease/management',
    title: t('分类管理', 'Classifications', 'Clasificaciones', '分類管理'),
    icon: 'tree',
    grades: null,
    children: [
      { name: 'DiseaseManage', path: '/disease/management', title: t('疾病分类', 'Disease categories', 'Categorías de enfermedades', '疾患分類'), grades: [0], buttons: crud('disease') },
      { name: 'SystemManage', path: '/disease/management2', title: t('系统分类', 'System categories', 'Categorías de sistemas', '系統分類'), grades: [0], buttons: crud('system') },
    ],
  },
  {
    name: 'Acupoint',
    path: '/acupoint',
    redirect: '/acupoint/management',
    title: t('穴位管理', 'Acupoints', 'Acupuntos', '経穴管理'),
    icon: 'aim',
    grades: null,
    children: [
      { name: 'AcupointManage', path: '/acupoint/management', title: t('穴位管理', 'Acupoints', 'Acupuntos', '経穴管理'), icon: 'aim', grades: [0], buttons: crud('acupoint') },
      {
        name: 'AcupointAction',
        path: '/acupoint/action/:id',
        title: t('治疗动作', 'Treatment actions', 'Acciones de tratamiento', '治療動作'),
        grades: [0],
        hidden: true,
        buttons: [{ key: 'acupoint:action', title: t('编辑动作', 'Edit actions', 'Editar acciones', '動作編集') }],
      },
    ],
  },
  {
    name: 'Schematic',
    path: '/schematic',
    redirect: '/schematic/management',
    title: t('示意图管理', 'Schematic diagrams', 'Diagramas', '図解管理'),
    icon: 'picture',
    grades: null,
    children: [
      { name: 'SchematicManage', path: '/schematic/management', title: t('示意图管理', 'Schematic diagrams', 'Diagramas', '図解管理'), icon: 'picture', grades: [0], buttons: crud('schematic') },
    ],
  },
  {
    name: 'Jurisdiction',
    path: '/jurisdiction',
    redirect: '/jurisdiction/role',
    title: t('权限管理', 'Access control', 'Control de acceso', '権限管理'),
    icon: 'lock',
    grades: null,
    children: [
      {
        name: 'RoleManage',
        path: '/jurisdiction/role',
        title: t('角色管理', 'Roles', 'Roles', 'ロール'),
        grades: [0],
        buttons: [...crud('role'), { key: 'role:view-as', title: t('切换角色', 'View as role', 'Ver como rol', 'ロールで表示') }],
      },
      { name: 'MenuManage', path: '/jurisdiction/menu', title: t('菜单管理', 'Menus', 'Menús', 'メニュー'), grades: [0], buttons: crud('menu') },
      {
        name: 'AdminUserManage',
        path: '/jurisdiction/admin_user',
        title: t('管理员', 'Admin users', 'Administradores', '管理者'),
        grades: [0],
        buttons: [
          ...crud('admin'),
          { key: 'admin:reset-password', title: t('重置密码', 'Reset password', 'Restablecer contraseña', 'パスワード再設定') },
          { key: 'admin:status', title: t('启用/停用', 'Enable/disable', 'Activar/desactivar', '有効/無効') },
        ],
      },
    ],
  },
  {
    name: 'System',
    path: '/system',
    redirect: '/system/params-setting',
    title: t('系统设置', 'System', 'Sistema', 'システム'),
    icon: 'setting',
    grades: null,
    children: [
      { name: 'ParamsSetting', path: '/system/params-setting', title: t('参数设置', 'Parameters', 'Parámetros', 'パラメータ'), grades: [0], buttons: [{ key: 'params:edit', title: B.edit }] },
      { name: 'AuditLog', path: '/system/audit-log', title: t('审计日志', 'Audit log', 'Registro de auditoría', '監査ログ'), icon: 'audit', grades: [0] },
    ],
  },
  { name: 'Notices', path: '/notices', title: t('通知', 'Notices', 'Avisos', 'お知らせ'), grades: ALL, hidden: true, personal: true },
  { name: 'AccountSecurity', path: '/account/security', title: t('账号安全', 'Security', 'Seguridad', 'セキュリティ'), grades: ALL, hidden: true, personal: true },
] as const satisfies readonly RouteDef[];

type RouteOf<R> = R extends readonly (infer X)[] ? X | (X extends { children: infer C } ? RouteOf<C> : never) : never;
type AnyRoute = RouteOf<typeof ROUTES>;
/** Every route name of the table (pages and their parents): what `{ page }` access and menu signs name. */
export type PageName = AnyRoute['name'];
/** Every button key of the table: what `{ button }` access, `<Access sign>` and role grants name. */
export type ButtonKey = (AnyRoute extends infer X ? (X extends { buttons: readonly (infer B)[] } ? B : never) : never) extends { key: infer K } ? K : never;
/** A menu sign: a route name or a button key. */
export type Sign = PageName | ButtonKey;

/** Every route, depth first. */
export function flattenRoutes(routes: readonly RouteDef[] = ROUTES): RouteDef[] {
  const out: RouteDef[] = [];
  const walk = (list: readonly RouteDef[]) =>
    list.forEach((r) => {
      out.push(r);
      if (r.children) walk(r.children);
    });
  walk(routes);
  return out;
}

export function findRoute(name: string): RouteDef | undefined {
  return flattenRoutes().find((r) => r.name === name);
}

/** The route a button key belongs to. */
export function routeOfButton(key: string): RouteDef | undefined {
  return flattenRoutes().find((r) => r.buttons?.some((b) => b.key === key));
}
