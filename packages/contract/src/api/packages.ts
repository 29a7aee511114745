import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idAnswer, idInput, idSchema as id, nullAnswer, post } from '../endpoint';
import { listQuery, optionalText, withMessage } from './common';

/*
 * Packages (`/package-manage`, grade 0, PackageManage, package:*): what end users buy on a device:
 * a number of inspections (count) or a time span (time). Prices are integer cents; the commission
 * rates of the grade-1 and grade-2 ancestors are basis points (10000 = 100%) and together at most 10000.
 * The endpoint table is `packagesApi` at the end of this file.
 *
 * Delete is soft and refused while the package is on sale (take it off sale first) or held by records
 * that refer to it (payments, activation codes: a later issue).
 */

export const PACKAGE_KINDS = ['count', 'time'] as const;
export type PackageKind = (typeof PACKAGE_KINDS)[number];
export const PACKAGE_STATUSES = ['on_sale', 'off_sale'] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];
/** `sort` is the package's sort order, `price` its price. */
export const PACKAGE_SORTS = ['sort', 'price', 'created_at', 'name'] as const;
export const PACKAGE_LIMITS = { maxUses: 100_000, maxDays: 3650, maxPriceCents: 100_000_000, maxRateBp: 10_000, maxSortOrder: 1_000_000, nameLength: 100, descriptionLength: 500 } as const;

export const packageListQuery = listQuery(
  {
    /** Name or description (contains). */
    keyword: optionalText(64),
    kind: z.enum(PACKAGE_KINDS).optional(),
    status: z.enum(PACKAGE_STATUSES).optional(),
  },
  PACKAGE_SORTS,
);
export type PackageListQuery = z.infer<typeof packageListQuery>;

const rate = z.number().int().min(0).max(PACKAGE_LIMITS.maxRateBp);
/** The fields of a package, one schema each: the server's validation and the form's rules and limits. */
export const packageFields = {
  name: z.string().trim().min(1).max(PACKAGE_LIMITS.nameLength),
  kind: z.enum(PACKAGE_KINDS),
  /** Count packages only: inspections granted (1..100000). */
  uses: z.number().int().min(1).max(PACKAGE_LIMITS.maxUses).nullish(),
  /** Time packages only: days granted (1..3650). */
  days: z.number().int().min(1).max(PACKAGE_LIMITS.maxDays).nullish(),
  price_cents: z.number().int().min(0).max(PACKAGE_LIMITS.maxPriceCents),
  commission_rate_l1_bp: rate.optional().default(0),
  commission_rate_l2_bp: rate.optional().default(0),
  sort_order: z.number().int().min(0).max(PACKAGE_LIMITS.maxSortOrder).optional().default(0),
  description: z.string().trim().max(PACKAGE_LIMITS.descriptionLength).optional().default(''),
};

interface PackageFields {
  kind: PackageKind;
  uses?: number | null;
  days?: number | null;
  commission_rate_l1_bp: number;
  commission_rate_l2_bp: number;
}

/** The cross-field rules: exactly one of uses/days, matching the kind; the two rates sum to at most 10000. */
function checkPackage(v: PackageFields, ctx: z.RefinementCtx) {
  const issue = (path: string, msg: Parameters<typeof withMessage>[0], params?: Record<string, number>) => ctx.addIssue({ code: 'custom', path: [path], ...withMessage(msg, params) });
  if (v.kind === 'count') {
    if (v.uses == null) issue('uses', 'packageUsesRequired');
    if (v.days != null) issue('days', 'packageDaysNotAllowed');
  } else if (v.kind === 'time') {
    if (v.days == null) issue('days', 'packageDaysRequired');
    if (v.uses != null) issue('uses', 'packageUsesNotAllowed');
  }
  if (v.commission_rate_l1_bp + v.commission_rate_l2_bp > PACKAGE_LIMITS.maxRateBp) {
    issue('commission_rate_l1_bp', 'commissionSum', { max: PACKAGE_LIMITS.maxRateBp });
    issue('commission_rate_l2_bp', 'commissionSum', { max: PACKAGE_LIMITS.maxRateBp });
  }
}
/** uses/days of the other kind come out as null. */
const normalize = <T extends PackageFields>(v: T) => Object.assign({}, v, { uses: v.kind === 'count' ? v.uses! : null, days: v.kind === 'time' ? v.days! : null });

export const packageAddBody = z
  // biome-ignore lint/plugin/no-property-after-spread: a schema, built once
  .object({ ...packageFields, status: z.enum(PACKAGE_STATUSES).optional().default('off_sale') })
  .superRefine(checkPackage)
  .transform(normalize);
export type PackageAddBody = z.infer<typeof packageAddBody>;
/** Edit sends the whole record (status changes through POST /package/set_status). */
export const packageEditBody = z
  .object({ id, ...packageFields })
  .superRefine(checkPackage)
  .transform(normalize);
export type PackageEditBody = z.infer<typeof packageEditBody>;
export const packageSetStatusBody = z.object({ id, status: z.enum(PACKAGE_STATUSES) });
export type PackageSetStatusBody = z.infer<typeof packageSetStatusBody>;

export interface PackageRow {
  id: number;
  name: string;
  kind: PackageKind;
  uses: number | null;
  days: number | null;
  price_cents: number;
  commission_rate_l1_bp: number;
  commission_rate_l2_bp: number;
  status: PackageStatus;
  sort_order: number;
  description: string;
  created_at: string;
  updated_at: string;
}
export type PackageDetail = PackageRow;

export const packagesApi = defineEndpoints('packages', {
  list: get('/package/list', { page: 'PackageManage' }, packageListQuery, answer<ListResult<PackageRow>>()),
  detail: get('/package/detail', { page: 'PackageManage' }, idInput, answer<PackageDetail>()),
  add: post('/package/add', { button: 'package:add' }, packageAddBody, idAnswer, { audit: 'package' }),
  /** The whole record; status changes through set_status. */
  edit: post('/package/edit', { button: 'package:edit' }, packageEditBody, nullAnswer, { audit: 'package' }),
  /** Put on sale or take off sale. */
  setStatus: post('/package/set_status', { button: 'package:edit' }, packageSetStatusBody, nullAnswer, { audit: 'package' }),
  /** Soft delete, refused while on sale or held by records. */
  remove: post('/package/del', { button: 'package:delete' }, idInput, nullAnswer, { audit: 'package' }),
});

/**
 * What a grant (a package paid on the device, a code redeemed) makes of a device's term and uses: days run
 * on from the later of now and the current expiry (an expired term starts again today, a live one is
 * extended); uses add to what is left. A grant of no days (or no uses) leaves that side as it is. The one
 * rule for payments (finance) and code redemption (codes).
 */
export function extendedTerm(
  device: { expiresAt: Date | null; remainingUses: number | null },
  grant: { days: number | null; uses: number | null },
  now: number,
): { expiresAt: Date | null; remainingUses: number | null } {
  return {
    expiresAt: grant.days ? new Date(Math.max(now, device.expiresAt?.getTime() ?? 0) + grant.days * 86_400_000) : device.expiresAt,
    remainingUses: grant.uses ? (device.remainingUses ?? 0) + grant.uses : device.remainingUses,
  };
}
