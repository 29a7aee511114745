import { z } from 'zod';
import { answer, defineEndpoints, get, noInput, nullAnswer, post } from '../endpoint';
import { withMessage } from './common';
import type { L10n, Lang } from '../i18n';

/*
 * System parameters (`/system/params-setting`, grade 0, ParamsSetting, params:edit): typed settings the
 * server reads where they apply, at every use (a saved change takes effect at once). This table is the
 * single source of their types, bounds, defaults and labels: the server builds its validation from it
 * and the client renders a typed form from GET /params/list.
 *
 * | Method | Path           | Access               | Payload        | Answer        |
 * |--------|----------------|----------------------|----------------|---------------|
 * | GET    | /params/list   | page ParamsSetting   | -              | ParamItem[]   |
 * | POST   | /params/save   | button params:edit   | paramsSaveBody | null          |
 * | GET    | /params/public | public (no session)  | -              | PublicParams  |
 *
 * Save field errors are keyed `values.<key>`. The endpoint table is `paramsApi` at the end of this file.
 */

export const PARAM_TYPES = ['string', 'integer', 'enum', 'text', 'money_cents'] as const;
/** string: one line; text: several lines; money_cents: integer cents (the form shows currency units). */
export type ParamType = (typeof PARAM_TYPES)[number];
export interface ParamOption {
  value: string;
  label: L10n;
}

export interface ParamMeta {
  type: ParamType;
  default: string | number;
  label: L10n;
  help: L10n;
  /** integer and money_cents: inclusive bounds. */
  min?: number;
  max?: number;
  /** string and text: length bounds after trimming. */
  min_length?: number;
  max_length?: number;
  /** enum: the allowed values. */
  options?: readonly ParamOption[];
  /** Answered without a session by GET /params/public (the login page). */
  public?: boolean;
}

const t = (zh: string, en: string, es: string, ja: string): L10n => ({ zh, en, es, ja });
const same = (text: string) => t(text, text, text, text);

export const PARAM_META = {
  site_title: {
    type: 'string',
    // Empty: the product's own name, in each reader's language (a fixed default would be one language for all).
    default: '',
    min_length: 0,
    max_length: 60,
    public: true,
    label: t('站点标题', 'Site title', 'Título del sitio', 'サイトタイトル'),
    help: t(
      '显示在登录页和浏览器标签上；留空则按读者的语言显示产品名称',
      "Shown on the login page and in the browser tab; left empty, the product's name in the reader's language",
      'Se muestra en la página de inicio de sesión y en la pestaña del navegador; si se deja vacío, el nombre del producto en el idioma del lector',
      'ログインページとブラウザのタブに表示されます。空欄なら閲覧者の言語の製品名',
    ),
  },
  default_language: {
    type: 'enum',
    default: 'en',
    public: true,
    options: [
      { value: 'zh', label: same('中文') },
      { value: 'en', label: same('English') },
      { value: 'es', label: same('Español') },
      { value: 'ja', label: same('日本語') },
    ],
    label: t('默认语言', 'Default language', 'Idioma predeterminado', '既定の言語'),
    help: t(
      '访客没有保存语言偏好、且浏览器语言不受支持时使用的语言',
      "Used when a visitor has no saved language and the browser's language is not supported",
      'Se usa cuando el visitante no tiene un idioma guardado y el idioma del navegador no es compatible',
      '保存された言語がなく、ブラウザの言語が未対応の場合に使われます',
    ),
  },
  min_payout_cents: {
    type: 'money_cents',
    default: 10_000,
    min: 0,
    max: 100_000_000,
    label: t('最低提现金额', 'Minimum payout', 'Retiro mínimo', '最低出金額'),
    help: t(
      '机构单次申请提现的最低金额',
      'The smallest amount an institution may apply to withdraw at once',
      'El importe mínimo que una institución puede solicitar retirar de una vez',
      '機関が一度に申請できる最低出金額',
    ),
  },
  password_min_length: {
    type: 'integer',
    default: 8,
    min: 3,
    max: 64,
    label: t('密码最小长度', 'Minimum password length', 'Longitud mínima de la contraseña', 'パスワードの最小文字数'),
    help: t(
      '管理员和机构设置新密码时的最少字符数',
      'Fewest characters a new password of an admin or institution may have',
      'Número mínimo de caracteres de una nueva contraseña de administrador o institución',
      '管理者・機関が新しいパスワードに使う最小文字数',
    ),
  },
  session_idle_minutes: {
    type: 'integer',
    default: 120,
    min: 5,
    max: 7 * 24 * 60,
    label: t('会话空闲超时（分钟）', 'Session idle timeout (minutes)', 'Inactividad máxima de la sesión (minutos)', 'セッションの無操作タイムアウト（分）'),
    help: t(
      '无操作超过此时间后需要重新登录',
      'After this long without activity, the user must sign in again',
      'Tras este tiempo sin actividad, el usuario debe iniciar sesión de nuevo',
      'この時間操作がないと再ログインが必要になります',
    ),
  },
  session_absolute_hours: {
    type: 'integer',
    default: 168,
    min: 1,
    max: 90 * 24,
    label: t('会话最长有效期（小时）', 'Maximum session lifetime (hours)', 'Duración máxima de la sesión (horas)', 'セッションの最長有効期間（時間）'),
    help: t(
      '登录后无论是否活动，超过此时间都需重新登录（对新登录生效）',
      'However active, a sign-in lasts at most this long (applies to new sign-ins)',
      'Aunque haya actividad, un inicio de sesión dura como máximo esto (se aplica a los nuevos)',
      '操作の有無にかかわらず、ログインはこの時間で切れます（新しいログインに適用）',
    ),
  },
  reauth_minutes: {
    type: 'integer',
    default: 5,
    min: 1,
    max: 60,
    label: t('重新验证有效期（分钟）', 'Re-authentication window (minutes)', 'Validez de la reautenticación (minutos)', '再認証の有効時間（分）'),
    help: t(
      '审批提现、退款、生成激活码、管理角色与账号等操作前需重新输入密码；输入后（或刚登录后）在此时间内无需再次输入',
      'Approving payouts, refunds, generating activation codes and managing roles and accounts ask for the password again; after that (or a fresh sign-in) not again for this long',
      'Aprobar retiros y reembolsos, generar códigos de activación y gestionar roles y cuentas piden de nuevo la contraseña; después (o tras iniciar sesión) no vuelven a pedirla durante este tiempo',
      '出金の承認、返金、アクティベーションコードの生成、ロールやアカウントの管理の前にパスワードを再入力します。入力後（またはログイン直後）はこの時間内は再入力不要です',
    ),
  },
  report_disclaimer: {
    type: 'text',
    default: 'This report supports, and does not replace, a diagnosis by a qualified practitioner.',
    min_length: 0,
    max_length: 2000,
    label: t('报告免责声明', 'Report disclaimer', 'Aviso legal del informe', 'レポートの免責事項'),
    help: t('打印在每份检测报告底部的文字', 'Text printed at the foot of every inspection report', 'Texto impreso al pie de cada informe de inspección', '各検査レポートの末尾に印刷される文章'),
  },
  expiring_days: {
    type: 'integer',
    default: 30,
    min: 1,
    max: 365,
    label: t('即将到期天数', 'Expiring-soon window (days)', 'Aviso de vencimiento (días)', '期限切れ間近の日数'),
    help: t(
      '设备在此天数内到期时标记为“即将到期”',
      'Devices that expire within this many days are marked as expiring',
      'Los equipos que vencen en estos días se marcan como próximos a vencer',
      'この日数以内に期限切れになる機器は「期限間近」と表示されます',
    ),
  },
  share_days: {
    type: 'integer',
    default: 30,
    min: 1,
    max: 90,
    label: t('报告分享链接有效天数', 'Report link validity (days)', 'Validez del enlace del informe (días)', 'レポート共有リンクの有効日数'),
    help: t(
      '"与受检者分享"生成的链接默认有效的天数（1-90）',
      'How many days a link made by "Share with the person" stays valid by default (1-90)',
      'Cuántos días sigue siendo válido por defecto un enlace creado con "Compartir con la persona" (1-90)',
      '「受検者と共有」で作成したリンクが既定で有効な日数（1～90）',
    ),
  },
  device_offline_hours: {
    type: 'integer',
    default: 24,
    min: 1,
    max: 24 * 90,
    label: t('设备离线通知（小时）', 'Device offline notice (hours)', 'Aviso de equipo sin conexión (horas)', '機器オフライン通知（時間）'),
    help: t(
      '已激活的设备超过这么多小时没有联系服务器时，发出一条“设备离线”通知',
      'An active device that has not called the server for this many hours raises a "device offline" notice',
      'Un equipo activo que no llama al servidor durante estas horas genera un aviso de "equipo sin conexión"',
      '有効な機器がこの時間サーバーに接続しないと「機器オフライン」通知が出ます',
    ),
  },
  device_online_minutes: {
    type: 'integer',
    default: 10,
    min: 1,
    max: 1440,
    label: t('设备在线判定（分钟）', 'Device online window (minutes)', 'Ventana de conexión del equipo (minutos)', '機器オンライン判定（分）'),
    help: t(
      '设备在这么多分钟内联系过服务器即显示为在线',
      'A device that called the server within this many minutes is shown as online',
      'Un equipo que llamó al servidor en estos minutos se muestra como conectado',
      'この分数以内にサーバーへ接続した機器はオンラインと表示されます',
    ),
  },
  device_uses_low: {
    type: 'integer',
    default: 20,
    min: 0,
    max: 100_000,
    label: t('剩余次数不足通知', 'Low remaining uses notice', 'Aviso de usos restantes bajos', '残り回数不足の通知'),
    help: t(
      '按次计费的设备剩余次数降到这个数或更少时，发出一条通知',
      'A count-based device whose remaining uses fall to this number or fewer raises a notice',
      'Un equipo por usos cuyos usos restantes bajan a este número o menos genera un aviso',
      '回数制の機器の残り回数がこの数以下になると通知が出ます',
    ),
  },
  upload_daily_limit: {
    type: 'integer',
    default: 200,
    min: 1,
    max: 100_000,
    label: t('每个账号每日上传数', 'Uploads per account per day', 'Subidas por cuenta y día', 'アカウントごとの1日のアップロード数'),
    help: t(
      '一个账号每天（UTC）最多可上传的文件数；超出后当天的上传会被拒绝',
      'The most files one account may upload in a day (UTC); further uploads that day are refused',
      'El máximo de archivos que una cuenta puede subir en un día (UTC); las siguientes subidas de ese día se rechazan',
      '1つのアカウントが1日（UTC）にアップロードできるファイル数の上限。超えるとその日のアップロードは拒否されます',
    ),
  },
  backup_daily: {
    type: 'integer',
    // Stored values win; unsaved, the server backs up daily on the embedded database only (with DATABASE_URL,
    // the operator's own pg_dump is expected): apps/server/src/lib/backups.ts.
    default: 1,
    min: 0,
    max: 1,
    label: t('每日自动备份', 'Daily automatic backup', 'Copia de seguridad diaria automática', '毎日の自動バックアップ'),
    help: t(
      '1：服务器每天在 DATA_DIR/backups 中写入一份数据库备份；0：关闭。未保存时，内置数据库默认开启，使用 DATABASE_URL 时默认关闭',
      '1: the server writes a backup of the database into DATA_DIR/backups once a day; 0: off. Until saved here, on with the embedded database and off with DATABASE_URL',
      '1: el servidor escribe una copia de la base de datos en DATA_DIR/backups una vez al día; 0: desactivada. Mientras no se guarde aquí, activada con la base de datos integrada y desactivada con DATABASE_URL',
      '1：サーバーが毎日 DATA_DIR/backups にデータベースのバックアップを書き込みます。0：オフ。ここで保存するまでは、内蔵データベースではオン、DATABASE_URL 使用時はオフ',
    ),
  },
  backup_keep: {
    type: 'integer',
    default: 7,
    min: 1,
    max: 365,
    label: t('保留的每日备份数', 'Daily backups kept', 'Copias diarias conservadas', '保持する毎日のバックアップ数'),
    help: t(
      'DATA_DIR/backups 中保留最新的这么多份每日备份，更早的会被删除',
      'The newest this many daily backups are kept in DATA_DIR/backups; older ones are deleted',
      'Se conservan en DATA_DIR/backups las copias diarias más recientes, hasta este número; las más antiguas se borran',
      'DATA_DIR/backups には最新のこの数の毎日のバックアップを残し、それより古いものは削除します',
    ),
  },
  mfa_required_admins: {
    type: 'integer',
    default: 0,
    min: 0,
    max: 1,
    label: t('管理员必须使用两步验证', 'Admins must use two-step verification', 'Los administradores deben usar la verificación en dos pasos', '管理者に 2 段階認証を必須にする'),
    help: t(
      '1：未设置两步验证的平台管理员登录后只能先完成设置；0：可选',
      '1: a platform admin without two-step verification can do nothing but set it up after signing in; 0: optional',
      '1: un administrador de la plataforma sin verificación en dos pasos solo puede configurarla tras iniciar sesión; 0: opcional',
      '1：2 段階認証のないプラットフォーム管理者は、ログイン後にその設定しかできません。0：任意',
    ),
  },
} as const satisfies Record<string, ParamMeta>;

export type ParamKey = keyof typeof PARAM_META;
export const PARAM_KEYS = Object.keys(PARAM_META) as ParamKey[];
type ValueOf<D> = D extends { type: 'enum'; options: readonly (infer O)[] } ? (O extends { value: infer V } ? V : never) : D extends { type: 'integer' | 'money_cents' } ? number : string;
export type ParamValues = { -readonly [K in ParamKey]: ValueOf<(typeof PARAM_META)[K]> };

/** Form inputs may send integers as text: digits are accepted and turned into numbers. */
const integerText = (v: unknown) => (typeof v === 'string' && /^\s*-?\d{1,15}\s*$/.test(v) ? Number(v) : v);

/** The validation of one parameter, built from its metadata. */
export function paramSchema(meta: ParamMeta): z.ZodType<string | number> {
  switch (meta.type) {
    case 'integer':
    case 'money_cents':
      return z.preprocess(
        integerText,
        z
          .number()
          .int()
          .min(meta.min ?? 0)
          .max(meta.max ?? Number.MAX_SAFE_INTEGER),
      );
    case 'enum':
      return z.enum(meta.options!.map((o) => o.value) as [string, ...string[]]);
    case 'string':
    case 'text':
      return z
        .string()
        .trim()
        .min(meta.min_length ?? 0)
        .max(meta.max_length ?? 2000);
  }
}

export const PARAM_SCHEMAS = Object.fromEntries(PARAM_KEYS.map((k) => [k, paramSchema(PARAM_META[k])])) as {
  [K in ParamKey]: z.ZodType<ParamValues[K]>;
};

/** POST /params/save: any subset of the parameters; an unknown key or any invalid value refuses the whole save. */
export const paramsSaveBody = z.object({
  values: z
    .strictObject(Object.fromEntries(PARAM_KEYS.map((k) => [k, PARAM_SCHEMAS[k].optional()])) as { [K in ParamKey]: z.ZodOptional<z.ZodType<ParamValues[K]>> })
    .refine((v) => Object.values(v).some((x) => x !== undefined), withMessage('paramsNothing')),
});
export type ParamsSaveBody = z.infer<typeof paramsSaveBody>;

/** A row of GET /params/list: the metadata, the current value (stored, or the default). */
export type ParamItem = ParamMeta & { key: ParamKey; value: string | number };

/** GET /params/public: what the login page needs before anyone signs in. */
export interface PublicParams {
  site_title: string;
  default_language: Lang;
}

export const paramsApi = defineEndpoints('params', {
  /** Every parameter with its type, bounds, labels, default and current value. */
  list: get('/params/list', { page: 'ParamsSetting' }, noInput, answer<ParamItem[]>()),
  /** Any subset, all or nothing; the audit trail keeps the whole set before and after. */
  save: post('/params/save', { button: 'params:edit' }, paramsSaveBody, nullAnswer, { audit: 'params' }),
  /** The login page's title and language, before anyone signs in. */
  publicValues: get('/params/public', { public: true }, noInput, answer<PublicParams>()),
});
