import { z } from 'zod';
import { answer, defineEndpoints, get, optionalId } from '../endpoint';
import type { L10n } from '../i18n';
import type { PageName } from '../routes';
import { EXPORT_FORMATS, withMessage } from './common';

/*
 * Stats dashboards (issue 13, item 1): one endpoint per page answering every figure of the page in one
 * call for a date range, and one export endpoint streaming one table of a page as CSV or XLSX. Pages:
 * EquipmentStats (grade 0), ButionStats and InstitutionStats (grade 0, hidden), FinanceStats (grades 1-2,
 * hidden; grade 0 by address, for any institution). Every figure is scoped to the caller's subtree.
 * Days are UTC days (the platform has no time zone of its own); `from` and `to` are both included.
 * What each figure means exactly: docs/decisions.md, "Stats".
 */

export const STATS_GRANULARITIES = ['day', 'month'] as const;
export type StatsGranularity = (typeof STATS_GRANULARITIES)[number];
export const STATS_LIMITS = {
  /** The longest range, in days (about 3 years). */
  maxDays: 1096,
  /** Ranges up to this many days are bucketed by day unless a granularity is given, longer ones by month. */
  dayBucketsUpTo: 62,
  /** The "top" series (institutions, regions, packages, children) keep this many rows. */
  top: 10,
} as const;

const DAY_MS = 86_400_000;
/** The number of days a range covers, both ends included (dates are YYYY-MM-DD). */
export const rangeDays = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
/** The granularity of a range when none is given. */
export const autoGranularity = (from: string, to: string): StatsGranularity => (rangeDays(from, to) <= STATS_LIMITS.dayBucketsUpTo ? 'day' : 'month');

const dateOnly = z.iso.date();
const rangeShape = { from: dateOnly, to: dateOnly, granularity: z.enum(STATS_GRANULARITIES).optional() };
type RangeLike = { from: string; to: string };
/** A range's rules: from <= to, at most STATS_LIMITS.maxDays days. */
const ranged = <S extends z.ZodType<RangeLike>>(schema: S) =>
  schema
    .refine((v) => v.from <= v.to, { path: ['to'], ...withMessage('statsRangeOrder') })
    .refine((v) => v.from > v.to || rangeDays(v.from, v.to) <= STATS_LIMITS.maxDays, { path: ['from'], ...withMessage('statsRangeTooLong', { days: STATS_LIMITS.maxDays }) });

export const statsQuery = ranged(z.object(rangeShape));
export type StatsQuery = z.infer<typeof statsQuery>;
/** Grade 0: any institution (none: the platform's own figures); grades 1-2: their own or one of their subtree. */
// biome-ignore lint/plugin/no-property-after-spread: a schema, built once
export const financeStatsQuery = ranged(z.object({ ...rangeShape, institution_id: optionalId }));
export type FinanceStatsQuery = z.infer<typeof financeStatsQuery>;

/** One point of a series: a bucket (YYYY-MM-DD or YYYY-MM), a category key, or an id with its label. */
export interface StatPoint {
  key: string;
  label?: string;
  value: number;
}
export interface StatsRangeEcho {
  from: string;
  to: string;
  granularity: StatsGranularity;
}

/** The tables of every page (one per chart), in page order, and its KPI names. */
export const STATS_PAGES = {
  equipment: {
    route: 'EquipmentStats',
    kpis: ['devices', 'activeDevices', 'activations', 'inspections', 'expiringSoon', 'onlineDevices'],
    series: ['byStatus', 'activations', 'inspections', 'topInstitutions', 'topRegions'],
  },
  distribution: {
    route: 'ButionStats',
    kpis: ['moved', 'records', 'inStock', 'distributed'],
    series: ['moved', 'stock', 'byInstitution', 'byRegion'],
  },
  institution: {
    route: 'InstitutionStats',
    kpis: ['institutions', 'newInRange', 'overdue', 'expiring', 'pendingApplications'],
    series: ['byGrade', 'byRegion', 'byStatus', 'newPerPeriod', 'term', 'applications'],
  },
  finance: {
    route: 'FinanceStats',
    kpis: ['income', 'commission', 'balance', 'pendingPayouts', 'paidPayouts'],
    series: ['income', 'commission', 'byPackage', 'byChild', 'payouts', 'balance'],
  },
} as const satisfies Record<string, { route: PageName; kpis: readonly string[]; series: readonly string[] }>;
export type StatsPage = keyof typeof STATS_PAGES;
export const STATS_PAGE_NAMES = Object.keys(STATS_PAGES) as [StatsPage, ...StatsPage[]];
export type StatsSeriesOf<P extends StatsPage> = (typeof STATS_PAGES)[P]['series'][number];
export type StatsKpiOf<P extends StatsPage> = (typeof STATS_PAGES)[P]['kpis'][number];

/** One page's answer: the range as used, the KPI figures and every series. Money is in cents. */
export interface StatsAnswer<P extends StatsPage> {
  range: StatsRangeEcho;
  kpis: Record<StatsKpiOf<P>, number>;
  series: Record<StatsSeriesOf<P>, StatPoint[]>;
}
export interface FinanceStatsAnswer extends StatsAnswer<'finance'> {
  /** The institution the figures are about (null: the platform). */
  institution: { id: number; name: string; grade: number } | null;
}

/** Series whose values are money (cents); KPIs likewise. */
export const STATS_MONEY: { series: readonly string[]; kpis: readonly string[] } = {
  series: ['finance.income', 'finance.commission', 'finance.byPackage', 'finance.byChild', 'finance.payouts', 'finance.balance'],
  kpis: ['finance.income', 'finance.commission', 'finance.balance', 'finance.pendingPayouts', 'finance.paidPayouts'],
};
/** Series whose keys are time buckets (line or bar over time); the others are categories. */
export const STATS_TIME_SERIES: readonly string[] = [
  'equipment.activations',
  'equipment.inspections',
  'distribution.moved',
  'institution.newPerPeriod',
  'finance.income',
  'finance.commission',
  'finance.balance',
];

export const statsExportQuery = ranged(
  z.object({
    ...rangeShape,
    // biome-ignore lint/plugin/no-property-after-spread: a schema, built once
    page: z.enum(STATS_PAGE_NAMES),
    table: z.string().max(40),
    institution_id: optionalId,
    format: z.enum(EXPORT_FORMATS),
  }),
).refine((v) => (STATS_PAGES[v.page].series as readonly string[]).includes(v.table), { path: ['table'] });
export type StatsExportQuery = z.infer<typeof statsExportQuery>;

const t = (zh: string, en: string, es: string, ja: string): L10n => ({ zh, en, es, ja });
/** The column titles of the tables (what the web shows and the export writes): the key's and the value's. */
export const STATS_COLUMNS = {
  date: t('日期', 'Date', 'Fecha', '日付'),
  month: t('月份', 'Month', 'Mes', '月'),
  status: t('状态', 'Status', 'Estado', '状態'),
  institution: t('机构', 'Institution', 'Institución', '機関'),
  region: t('地区', 'Region', 'Región', '地域'),
  grade: t('级别', 'Grade', 'Nivel', '等級'),
  package: t('套餐', 'Package', 'Paquete', 'パッケージ'),
  kind: t('类别', 'Kind', 'Tipo', '種別'),
  devices: t('设备数', 'Devices', 'Equipos', '機器数'),
  inspections: t('检测次数', 'Inspections', 'Inspecciones', '検査数'),
  institutions: t('机构数', 'Institutions', 'Instituciones', '機関数'),
  applications: t('申请数', 'Applications', 'Solicitudes', '申請数'),
  amount: t('金额 (元)', 'Amount (yuan)', 'Importe (yuanes)', '金額 (元)'),
} satisfies Record<string, L10n>;
type Column = keyof typeof STATS_COLUMNS;

/** Each table: its title, its key column (a bucket column is `date` or `month` by granularity) and its value column. */
export const STATS_TABLES: { [P in StatsPage]: Record<StatsSeriesOf<P>, { title: L10n; key: Column | 'bucket'; value: Column }> } = {
  equipment: {
    byStatus: { title: t('设备状态', 'Devices by status', 'Equipos por estado', '状態別の機器'), key: 'status', value: 'devices' },
    activations: { title: t('激活数', 'Activations', 'Activaciones', 'アクティベーション数'), key: 'bucket', value: 'devices' },
    inspections: { title: t('检测次数', 'Inspections', 'Inspecciones', '検査数'), key: 'bucket', value: 'inspections' },
    topInstitutions: {
      title: t('活跃设备最多的机构', 'Top institutions by active devices', 'Instituciones con más equipos activos', 'アクティブ機器の多い機関'),
      key: 'institution',
      value: 'devices',
    },
    topRegions: { title: t('活跃设备最多的地区', 'Top regions by active devices', 'Regiones con más equipos activos', 'アクティブ機器の多い地域'), key: 'region', value: 'devices' },
  },
  distribution: {
    moved: { title: t('分配的设备', 'Devices moved', 'Equipos movidos', '移動した機器'), key: 'bucket', value: 'devices' },
    stock: { title: t('库存与已分配', 'Stock vs distributed', 'Stock frente a distribuidos', '在庫と配布済み'), key: 'kind', value: 'devices' },
    byInstitution: { title: t('各机构设备', 'Devices by institution', 'Equipos por institución', '機関別の機器'), key: 'institution', value: 'devices' },
    byRegion: { title: t('各地区设备', 'Devices by region', 'Equipos por región', '地域別の機器'), key: 'region', value: 'devices' },
  },
  institution: {
    byGrade: { title: t('各级别机构', 'Institutions by grade', 'Instituciones por nivel', '等級別の機関'), key: 'grade', value: 'institutions' },
    byRegion: { title: t('各地区机构', 'Institutions by region', 'Instituciones por región', '地域別の機関'), key: 'region', value: 'institutions' },
    byStatus: { title: t('机构状态', 'Institutions by status', 'Instituciones por estado', '状態別の機関'), key: 'status', value: 'institutions' },
    newPerPeriod: { title: t('新增机构', 'New institutions', 'Instituciones nuevas', '新規機関'), key: 'bucket', value: 'institutions' },
    term: { title: t('期限状况', 'Terms', 'Plazos', '期限の状況'), key: 'kind', value: 'institutions' },
    applications: { title: t('分支申请', 'Branch applications', 'Solicitudes de sucursal', '支店申請'), key: 'status', value: 'applications' },
  },
  finance: {
    income: { title: t('收入', 'Income', 'Ingresos', '収入'), key: 'bucket', value: 'amount' },
    commission: { title: t('佣金', 'Commission', 'Comisión', '手数料'), key: 'bucket', value: 'amount' },
    byPackage: { title: t('各套餐佣金', 'Commission by package', 'Comisión por paquete', 'パッケージ別の手数料'), key: 'package', value: 'amount' },
    byChild: { title: t('各下级机构佣金', 'Commission by child institution', 'Comisión por institución hija', '下位機関別の手数料'), key: 'institution', value: 'amount' },
    payouts: { title: t('提现', 'Payouts', 'Retiros', '出金'), key: 'status', value: 'amount' },
    balance: { title: t('余额走势', 'Balance over time', 'Saldo en el tiempo', '残高の推移'), key: 'bucket', value: 'amount' },
  },
};

/** Labels of the category keys the server answers without a label (statuses, grades, kinds). */
export const STATS_KEY_LABELS: Record<string, L10n> = {
  inactive: t('未激活', 'Inactive', 'Inactivo', '未アクティベート'),
  active: t('已激活', 'Active', 'Activo', 'アクティベート済み'),
  disabled: t('已停用', 'Disabled', 'Desactivado', '無効'),
  enabled: t('正常', 'Enabled', 'Activa', '有効'),
  stock: t('平台库存', 'Platform stock', 'Stock de la plataforma', 'プラットフォーム在庫'),
  distributed: t('已分配', 'Distributed', 'Distribuidos', '配布済み'),
  grade1: t('一级代理', 'Grade 1 (agent)', 'Nivel 1 (agente)', '1 級（代理店）'),
  grade2: t('二级代理', 'Grade 2 (sub-agent)', 'Nivel 2 (subagente)', '2 級（サブ代理店）'),
  grade3: t('门店', 'Grade 3 (clinic)', 'Nivel 3 (clínica)', '3 級（店舗）'),
  ok: t('期限正常', 'In term', 'En plazo', '期限内'),
  expiring: t('即将到期', 'Expiring', 'Por vencer', '期限間近'),
  overdue: t('已到期', 'Overdue', 'Vencida', '期限切れ'),
  noTerm: t('无期限', 'No term', 'Sin plazo', '期限なし'),
  pending: t('待处理', 'Pending', 'Pendiente', '保留中'),
  approved: t('已通过', 'Approved', 'Aprobada', '承認済み'),
  rejected: t('已驳回', 'Rejected', 'Rechazada', '却下'),
  paid: t('已打款', 'Paid', 'Pagado', '支払済み'),
  cancelled: t('已撤销', 'Cancelled', 'Cancelado', '取消'),
  unknown: t('未知', 'Unknown', 'Desconocido', '不明'),
};

/** The pages an export may come from: the server checks the named page against the caller. */
const ANY_STATS_PAGE = ['EquipmentStats', 'ButionStats', 'InstitutionStats', 'FinanceStats'] as const satisfies readonly PageName[];

export const statsApi = defineEndpoints('stats', {
  equipment: get('/stats/equipment', { page: 'EquipmentStats' }, statsQuery, answer<StatsAnswer<'equipment'>>()),
  distribution: get('/stats/distribution', { page: 'ButionStats' }, statsQuery, answer<StatsAnswer<'distribution'>>()),
  institution: get('/stats/institution', { page: 'InstitutionStats' }, statsQuery, answer<StatsAnswer<'institution'>>()),
  finance: get('/stats/finance', { page: 'FinanceStats' }, financeStatsQuery, answer<FinanceStatsAnswer>()),
  /** One table of a page (its `series` key) as CSV or XLSX; refused unless the caller may open that page. */
  exportTable: get('/stats/export', { page: ANY_STATS_PAGE }, statsExportQuery, answer<unknown>(), { raw: true, summary: 'One stats table as a CSV or XLSX file' }),
});
