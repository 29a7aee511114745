import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idSchema, noInput, nullAnswer, post } from '../endpoint';
import { type L10n, type Lang, pickText } from '../i18n';
import { listQuery } from './common';

/*
 * Notices (trust-api.md, "Notices"): what an operator should know without opening the right list at the
 * right time. One row per reader (account) and notice; the server writes them (event-driven ones in the
 * transaction of the change that caused them, time-based ones from a scheduled check) and each reader
 * lists, reads and follows them live (`/notice/stream`, server-sent events). A notice is stored as its kind
 * and parameters; its title and body are rendered at read time in the reader's language from the texts
 * below, and its link (the page that resolves it) from its kind and thing. The endpoint table is
 * `noticesApi` at the end of this file.
 */

export const NOTICE_KINDS = [
  'device_offline',
  'device_expiring',
  'device_uses_low',
  'institution_expiring',
  'payout_pending',
  'payout_decided',
  'refund_done',
  'application_pending',
  'application_decided',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
export const NOTICE_LEVELS = ['info', 'warning', 'success', 'error'] as const;
export type NoticeLevel = (typeof NOTICE_LEVELS)[number];

/** The level of each kind (the decided kinds take theirs from the outcome: `levelOf`). */
const KIND_LEVEL: Record<NoticeKind, NoticeLevel> = {
  device_offline: 'warning',
  device_expiring: 'warning',
  device_uses_low: 'warning',
  institution_expiring: 'warning',
  payout_pending: 'info',
  payout_decided: 'info',
  refund_done: 'info',
  application_pending: 'info',
  application_decided: 'info',
};
/** A notice's level: by kind, and for a decision by its outcome. */
export function levelOf(kind: NoticeKind, params: NoticeParams): NoticeLevel {
  if (kind === 'payout_decided' || kind === 'application_decided') return params.state === 'paid' || params.state === 'approved' ? 'success' : params.state === 'rejected' ? 'error' : 'info';
  return KIND_LEVEL[kind];
}

/** What a notice stores besides its kind: the words its texts fill in (names, amounts, dates), language-free. */
export type NoticeParams = Record<string, string | number | null>;

/** At most this many open streams per session (per server process): a further one closes the oldest. */
export const MAX_STREAMS_PER_SESSION = 5;
/** A comment line on every open stream this often, so proxies and the client know it is alive. */
export const STREAM_HEARTBEAT_MS = 25_000;

export const noticeListQuery = listQuery(
  {
    unread: z
      .enum(['1', 'true', '0', 'false'])
      .optional()
      .transform((v) => v === '1' || v === 'true'),
    kind: z.enum(NOTICE_KINDS).optional(),
    level: z.enum(NOTICE_LEVELS).optional(),
  },
  ['created_at'],
);
export type NoticeListQuery = z.infer<typeof noticeListQuery>;

/** `{ ids }` (the reader's own notices; others' ids are ignored) or `{ all: true }`. */
export const noticeReadBody = z.union([z.object({ ids: z.array(idSchema).min(1).max(500) }), z.object({ all: z.literal(true) })]);
export type NoticeReadBody = z.infer<typeof noticeReadBody>;

export interface NoticeRow {
  id: number;
  kind: NoticeKind;
  level: NoticeLevel;
  /** In the reader's language. */
  title: string;
  body: string;
  /** The page that resolves it (a path of the web app, with its filter). */
  link: string;
  created_at: string;
  read_at: string | null;
  /** What it is about: a device, institution, payout, payment or application id (by kind). */
  thing_id: number;
}
export interface NoticeListAnswer extends ListResult<NoticeRow> {
  /** The reader's unread notices, all kinds. */
  unread: number;
}

const t = (zh: string, en: string, es: string, ja: string): L10n => ({ zh, en, es, ja });

/** Each kind's title and body; `{name}` is filled from the notice's parameters. */
export const NOTICE_TEXTS: Record<NoticeKind, { title: L10n; body: L10n }> = {
  device_offline: {
    title: t('设备离线：{serial}', 'Device offline: {serial}', 'Equipo sin conexión: {serial}', '機器オフライン：{serial}'),
    body: t(
      '设备 {serial}（{name}，{institution}）自 {last_seen} 起超过 {hours} 小时没有联系服务器。',
      'Device {serial} ({name}, {institution}) has not called the server for more than {hours} hours, since {last_seen}.',
      'El equipo {serial} ({name}, {institution}) no llama al servidor desde hace más de {hours} horas, desde {last_seen}.',
      '機器 {serial}（{name}、{institution}）は {last_seen} から {hours} 時間以上サーバーに接続していません。',
    ),
  },
  device_expiring: {
    title: t('设备即将到期：{serial}', 'Device expiring: {serial}', 'Equipo a punto de vencer: {serial}', '機器の期限間近：{serial}'),
    body: t(
      '设备 {serial}（{name}，{institution}）将于 {expires} 到期。',
      'Device {serial} ({name}, {institution}) expires on {expires}.',
      'El equipo {serial} ({name}, {institution}) vence el {expires}.',
      '機器 {serial}（{name}、{institution}）は {expires} に期限切れになります。',
    ),
  },
  device_uses_low: {
    title: t('设备剩余次数不足：{serial}', 'Few uses left: {serial}', 'Quedan pocos usos: {serial}', '残り回数わずか：{serial}'),
    body: t(
      '设备 {serial}（{name}，{institution}）只剩 {uses} 次。',
      'Device {serial} ({name}, {institution}) has {uses} uses left.',
      'Al equipo {serial} ({name}, {institution}) le quedan {uses} usos.',
      '機器 {serial}（{name}、{institution}）の残り回数は {uses} 回です。',
    ),
  },
  institution_expiring: {
    title: t('机构即将到期：{institution}', 'Institution term ending: {institution}', 'Plazo de institución por vencer: {institution}', '機関の期限間近：{institution}'),
    body: t(
      '机构 {institution}（{username}）的期限将于 {expires} 结束，请用激活码续期。',
      'The term of {institution} ({username}) ends on {expires}; renew it with an activation code.',
      'El plazo de {institution} ({username}) vence el {expires}; renuévelo con un código de activación.',
      '機関 {institution}（{username}）の期限は {expires} に終わります。アクティベーションコードで更新してください。',
    ),
  },
  payout_pending: {
    title: t('提现待审核：{institution}', 'Payout to review: {institution}', 'Retiro por revisar: {institution}', '審査待ちの出金：{institution}'),
    body: t(
      '{institution} 申请提现 {amount}，等待审核。',
      '{institution} applied for a payout of {amount}; it awaits review.',
      '{institution} solicitó un retiro de {amount}; espera revisión.',
      '{institution} が {amount} の出金を申請しました。審査を待っています。',
    ),
  },
  payout_decided: {
    title: t('提现{state}：{amount}', 'Payout {state}: {amount}', 'Retiro {state}: {amount}', '出金：{state}（{amount}）'),
    body: t(
      '{institution} 的 {amount} 提现申请{state}。{reason}',
      'The payout of {amount} applied for by {institution} was {state}. {reason}',
      'El retiro de {amount} solicitado por {institution} fue {state}. {reason}',
      '{institution} の {amount} の出金申請：{state}。{reason}',
    ),
  },
  refund_done: {
    title: t('已退款：{amount}', 'Refunded: {amount}', 'Reembolsado: {amount}', '返金済み：{amount}'),
    body: t(
      '设备 {serial}（{institution}）的订单 {order_no} 已退款 {amount}。{reason}',
      'Order {order_no} of device {serial} ({institution}) was refunded: {amount}. {reason}',
      'El pedido {order_no} del equipo {serial} ({institution}) fue reembolsado: {amount}. {reason}',
      '機器 {serial}（{institution}）の注文 {order_no} は返金されました：{amount}。{reason}',
    ),
  },
  application_pending: {
    title: t('分支机构申请待审核：{name}', 'Branch application to review: {name}', 'Solicitud de sucursal por revisar: {name}', '審査待ちの支店申請：{name}'),
    body: t(
      '{applicant} 申请开设分支机构 {name}（账号 {username}），等待审核。',
      '{applicant} applied for a branch {name} (account {username}); it awaits review.',
      '{applicant} solicitó la sucursal {name} (cuenta {username}); espera revisión.',
      '{applicant} が支店 {name}（アカウント {username}）を申請しました。審査を待っています。',
    ),
  },
  application_decided: {
    title: t('分支机构申请{state}：{name}', 'Branch application {state}: {name}', 'Solicitud de sucursal resuelta: {name}', '支店申請：{state}（{name}）'),
    body: t(
      '{applicant} 的分支机构申请 {name}（账号 {username}）{state}。{reason}',
      "{applicant}'s application for the branch {name} (account {username}) was {state}. {reason}",
      'Solicitud de {applicant} para la sucursal {name} (cuenta {username}): {state}. {reason}',
      '{applicant} の支店 {name}（アカウント {username}）の申請：{state}。{reason}',
    ),
  },
};

/** The words of a decision's outcome (`{state}`). */
export const NOTICE_STATES: Record<string, L10n> = {
  paid: t('已支付', 'paid', 'pagado', '支払済み'),
  rejected: t('被驳回', 'rejected', 'rechazado', '却下'),
  cancelled: t('已撤销', 'cancelled', 'cancelado', '取り消し'),
  approved: t('已通过', 'approved', 'aprobado', '承認'),
};
const REASON = t('原因：{reason}', 'Reason: {reason}', 'Motivo: {reason}', '理由：{reason}');
const STOCK = t('平台库存', 'platform stock', 'inventario de la plataforma', 'プラットフォーム在庫');

/** A notice's title and body in a language, from its kind and stored parameters. */
export function renderNotice(kind: NoticeKind, params: NoticeParams, lang: Lang): { title: string; body: string } {
  const texts = NOTICE_TEXTS[kind];
  const words: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) words[k] = v == null ? '' : String(v);
  if (typeof params.state === 'string' && NOTICE_STATES[params.state]) words.state = pickText(NOTICE_STATES[params.state], lang);
  words.reason = params.reason ? pickText(REASON, lang).replace('{reason}', String(params.reason)) : '';
  if (!words.institution) words.institution = pickText(STOCK, lang);
  const fill = (text: L10n) =>
    pickText(text, lang)
      .replace(/\{(\w+)\}/g, (_, name: string) => words[name] ?? '')
      .trim();
  return { title: fill(texts.title), body: fill(texts.body) };
}

/** The page that resolves a notice: the list it concerns, filtered to its thing where the list can be. */
export function noticeLink(kind: NoticeKind, params: NoticeParams): string {
  const q = (v: string | number | null | undefined) => encodeURIComponent(String(v ?? ''));
  switch (kind) {
    case 'device_offline':
    case 'device_expiring':
    case 'device_uses_low':
      return `/dashboard/index?keyword=${q(params.serial)}`;
    case 'institution_expiring':
      return `/institutional/index?keyword=${q(params.username)}`;
    case 'payout_pending':
      return '/finance-record/payout-manage?status=pending';
    case 'payout_decided':
      return '/finance-record/payout-manage';
    case 'refund_done':
      return '/finance-record/device-end-record';
    case 'application_pending':
      return '/institutional/inspection-apply?state=pending';
    case 'application_decided':
      return '/institutional/inspection-apply';
  }
}

/**
 * The endpoint modules whose lists a notice of each kind concerns: the web app refreshes their queries
 * when such a notice arrives.
 */
export const NOTICE_MODULES: Record<NoticeKind, readonly string[]> = {
  device_offline: ['equipment', 'stats'],
  device_expiring: ['equipment'],
  device_uses_low: ['equipment'],
  institution_expiring: ['institutions'],
  payout_pending: ['finance'],
  payout_decided: ['finance'],
  refund_done: ['finance', 'equipment'],
  application_pending: ['branches'],
  application_decided: ['branches', 'institutions'],
};

export const noticesApi = defineEndpoints('notices', {
  /** The caller's notices, newest first, with its unread count; filters `unread`, `kind`, `level`. */
  list: get('/notice/list', { session: true }, noticeListQuery, answer<NoticeListAnswer>()),
  /** Marks some of the caller's notices read (`ids`), or all of them (`all: true`). */
  read: post('/notice/read', { session: true }, noticeReadBody, nullAnswer, { audit: false }),
  /**
   * `text/event-stream`: event `notice` with one notice's JSON (a row of the list) and its id, a comment
   * every 25 s. `Last-Event-ID` resumes after that notice. The key as every call: an Authorization header,
   * or `key` in the query string for clients that cannot set headers (EventSource).
   */
  stream: get('/notice/stream', { session: true }, noInput, answer<unknown>(), { raw: true, stream: true, summary: 'Live notices (server-sent events)' }),
});
