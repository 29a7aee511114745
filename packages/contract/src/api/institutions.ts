import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idInput, idSchema, noInput, nullableId, nullAnswer, post } from '../endpoint';
import { exportQuery, listQuery, optionalText, withMessage } from './common';
import { phoneSchema } from './person';
import { regionFilter, regionInput } from './regions';

/*
 * Institutions (`/institutional/index`, InstitutionList, grades 0-3): the tree of agents (grade 1),
 * sub-agents (grade 2) and clinics / stores (grade 3). Every call is scoped to the caller's subtree (the
 * platform's admins see every institution); ids outside it are refused. The grade rule: a child's grade
 * is its parent's plus one, at most 3 (a grade-3 clinic may own grade-3 branch stores); grade 1 has no
 * parent. The endpoint table is `institutionsApi` at the end of this file.
 *
 * - The list is a tree: without filters it answers the caller's top level (admins: the grade-1
 *   agents; an institution: itself), each row with its number of children; `subtree` answers the
 *   descendants of some rows down to a depth (expanding a row, or "expand to level n"). With any filter
 *   the list is flat: the matching institutions anywhere in the caller's subtree.
 * - Create: an admin creates a grade-1 agent (no parent) or a child of any institution; an institution
 *   creates its own direct children only. The login password is given, or generated and answered once.
 *   Only the platform sets a term: an institution's new child starts with its creator's term.
 * - Edit: name, contact, phone, region and address (the term: admins only); the account name stays.
 *   Institutions edit themselves and their descendants.
 * - Enable / disable and password reset: admins on any institution, institutions on their descendants
 *   (never on themselves). Both end the institution's sessions at once; a disabled one cannot sign in.
 * - Move (admins only): under another parent the grade rule allows, never under itself or its own
 *   descendant; the whole subtree moves with it, in one transaction.
 */

export const INSTITUTION_STATUSES = ['enabled', 'disabled'] as const;
export type InstitutionStatus = (typeof INSTITUTION_STATUSES)[number];
export const INSTITUTION_GRADES = [1, 2, 3] as const;
export type InstitutionGrade = (typeof INSTITUTION_GRADES)[number];
export const INSTITUTION_SORTS = ['name', 'grade', 'status', 'term_expires_at', 'created_at'] as const;
export const INSTITUTION_LIMITS = { nameLength: 100, contactLength: 50, addressLength: 200, usernameMin: 3, usernameMax: 64, passwordMax: 200 } as const;
/** How many descendants one `subtree` call answers at most (then `capped`). */
export const SUBTREE_LIMIT = 2000;
/** How many rows one `subtree` call may expand, and how deep. */
export const SUBTREE_MAX_ROOTS = 200;
export const SUBTREE_MAX_DEPTH = 3;

/** The grade of a new child of `parentGrade` (null: no parent, a grade-1 agent). */
export const childGrade = (parentGrade: number | null): InstitutionGrade => (parentGrade == null ? 1 : (Math.min(parentGrade + 1, 3) as InstitutionGrade));
/** Whether an institution of `grade` may sit under a parent of `parentGrade` (null: no parent). */
export const gradeFits = (grade: number, parentGrade: number | null) => childGrade(parentGrade) === grade;

/** An institution's login name: 3-64 letters, digits and `_ . @ -`, starting with a letter or digit. */
export const INSTITUTION_USERNAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.@-]{2,63}$/;
export const institutionUsername = z
  .string()
  .trim()
  .max(INSTITUTION_LIMITS.usernameMax)
  .refine((v) => INSTITUTION_USERNAME_RE.test(v), withMessage('usernameFormat'));

const flag = z
  .enum(['1', 'true', '0', 'false'])
  .optional()
  .transform((v) => v === '1' || v === 'true');

export const institutionListQuery = listQuery(
  {
    /** Name or account name (contains). */
    name: optionalText(100),
    grade: z
      .enum(['1', '2', '3'])
      .optional()
      .transform((v) => (v ? (Number(v) as InstitutionGrade) : undefined)),
    /** A region code of any level: a province matches every institution in it. */
    region: regionFilter,
    status: z.enum(INSTITUTION_STATUSES).optional(),
    /** The term ends within the `expiring_days` parameter (and has not ended yet). */
    expiring: flag,
    /** The term has ended. */
    overdue: flag,
  },
  INSTITUTION_SORTS,
);
export type InstitutionListQuery = z.infer<typeof institutionListQuery>;
export const institutionExportQuery = exportQuery(institutionListQuery);
export type InstitutionExportQuery = z.infer<typeof institutionExportQuery>;

/** Ids in a query string: `ids=1,2` or `ids=1&ids=2`. */
const idsParam = z.preprocess((v) => (typeof v === 'string' ? v.split(',') : v), z.array(idSchema).min(1).max(SUBTREE_MAX_ROOTS));
export const institutionSubtreeQuery = z.object({
  ids: idsParam,
  depth: z.coerce.number().int().min(1).max(SUBTREE_MAX_DEPTH).default(1),
});
export type InstitutionSubtreeQuery = z.infer<typeof institutionSubtreeQuery>;

/** A term: an ISO date-time, or null for no end. */
const termSchema = z.iso
  .datetime({ offset: true })
  .nullable()
  .refine((v) => v == null || Date.parse(v) < Date.parse('9999-01-01T00:00:00Z'), withMessage('invalidInput', { detail: 'term_expires_at' }));

/** The fields of an institution's create / edit, one schema each (forms take their limits from these). */
export const institutionFields = {
  name: z.string().trim().min(1).max(INSTITUTION_LIMITS.nameLength),
  contact_name: z.string().trim().min(1).max(INSTITUTION_LIMITS.contactLength),
  phone: phoneSchema,
  region: regionInput,
  address: z.string().trim().max(INSTITUTION_LIMITS.addressLength).optional().default(''),
  /** Admins only (an institution leaves it out); null = no end. */
  term_expires_at: termSchema.optional(),
};

/** Empty = generate one (answered once); otherwise checked against the system's minimum by the server. */
export const initialPassword = z
  .string()
  .max(INSTITUTION_LIMITS.passwordMax)
  .optional()
  .transform((v) => (v?.trim() ? v : undefined));

export const institutionAddBody = z.object({
  /** Admins: the parent (null / left out: a grade-1 agent). Institutions: left out or their own id. */
  parent_id: nullableId.optional(),
  username: institutionUsername,
  password: initialPassword,
  status: z.enum(INSTITUTION_STATUSES).optional().default('enabled'),
  ...institutionFields,
});
export type InstitutionAddBody = z.infer<typeof institutionAddBody>;

export const institutionEditBody = z.object({ id: idSchema, ...institutionFields });
export type InstitutionEditBody = z.infer<typeof institutionEditBody>;

export const institutionStatusBody = z.object({ id: idSchema, status: z.enum(INSTITUTION_STATUSES) });
export type InstitutionStatusBody = z.infer<typeof institutionStatusBody>;

export const institutionPasswordBody = z.object({ id: idSchema, password: initialPassword });
export type InstitutionPasswordBody = z.infer<typeof institutionPasswordBody>;

export const institutionMoveBody = z.object({ id: idSchema, parent_id: nullableId });
export type InstitutionMoveBody = z.infer<typeof institutionMoveBody>;

/** An institution as pickers show it (filters and forms). */
export interface InstitutionOption {
  id: number;
  name: string;
  grade: 1 | 2 | 3;
  parent_id: number | null;
}

export interface InstitutionRow {
  id: number;
  name: string;
  grade: InstitutionGrade;
  parent_id: number | null;
  parent_name: string | null;
  username: string;
  contact_name: string;
  phone: string;
  /** [province, city, district?] codes; empty when none is stored. */
  region: string[];
  address: string;
  status: InstitutionStatus;
  term_expires_at: string | null;
  /** The term has ended. */
  overdue: boolean;
  /** The term ends within the `expiring_days` parameter. */
  expiring: boolean;
  /** Direct children. */
  child_count: number;
  created_at: string;
}

export interface InstitutionDetail extends InstitutionRow {
  counts: {
    children: number;
    /** Every institution below it, at any depth. */
    descendants: number;
    /** Devices owned by it or by any institution below it. */
    devices: number;
    /** Payout applications still open in its subtree (0 until payouts exist). */
    open_payouts: number;
  };
}

export interface InstitutionSubtree {
  /** The descendants, in tree order (each after its parent). */
  list: InstitutionRow[];
  /** More than SUBTREE_LIMIT rows: the deepest level was cut. */
  capped: boolean;
}

/** A created institution, or a reset password: the generated password, answered this once (null when the caller set it). */
export interface InstitutionCreated {
  id: number;
  password: string | null;
}
export interface PasswordAnswer {
  password: string | null;
}

export const institutionsApi = defineEndpoints('institutions', {
  /** Institutions the caller may pick: its own subtree (every institution for admins), in tree order. */
  options: get('/institution/options', { page: ['DeviceList', 'UserManage', 'DoctorManage', 'InstitutionList', 'InspectionApply'] }, noInput, answer<InstitutionOption[]>()),
  /** The tree's top level (no filter) or the matching institutions of the caller's subtree (any filter). */
  list: get('/institution/list', { page: 'InstitutionList' }, institutionListQuery, answer<ListResult<InstitutionRow>>()),
  exportList: get('/institution/export', { button: 'institution:export' }, institutionExportQuery, answer<unknown>(), { raw: true, summary: 'Institutions as a CSV or XLSX file' }),
  /** Descendants of some rows of the list, down to `depth` levels below them. */
  subtree: get('/institution/subtree', { page: 'InstitutionList' }, institutionSubtreeQuery, answer<InstitutionSubtree>()),
  /** One institution with its subtree's counts. */
  detail: get('/institution/detail', { page: 'InstitutionList' }, idInput, answer<InstitutionDetail>()),
  add: post('/institution/add', { button: 'institution:add' }, institutionAddBody, answer<InstitutionCreated>(), { audit: 'institution' }),
  edit: post('/institution/edit', { button: 'institution:edit' }, institutionEditBody, nullAnswer, { audit: 'institution' }),
  /** Enable / disable; disabling ends its sessions at once. */
  setStatus: post('/institution/status', { button: 'institution:status' }, institutionStatusBody, nullAnswer, { audit: 'institution' }),
  /** A new password (given, or generated and answered once); ends its sessions. */
  resetPassword: post('/institution/reset_password', { button: 'institution:password' }, institutionPasswordBody, answer<PasswordAnswer>(), { audit: 'institution', stepUp: true }),
  /** Admins: under another parent (null: to the top, grade 1 only), with its whole subtree. */
  move: post('/institution/move', { button: 'institution:move' }, institutionMoveBody, nullAnswer, { audit: 'institution' }),
});
