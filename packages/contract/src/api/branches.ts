import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idAnswer, idSchema, nullAnswer, optionalId, post } from '../endpoint';
import { listQuery, optionalText } from './common';
import { initialPassword, institutionFields, institutionUsername, type InstitutionGrade } from './institutions';
import { regionFilter } from './regions';

/*
 * Branch setup (`/institutional/inspection-apply`, InspectionApply, grades 0-3): an institution files an
 * application for a branch (name, contact, phone, region, address, the account name it wants); the
 * platform approves it (the branch is created under the applicant, by the grade rule, with its login,
 * in the same transaction as the decision; the initial password is answered once) or rejects it with a
 * reason. Institutions see the applications of their own subtree, admins all of them. An account name
 * already used by an institution, or by another pending application, is refused at filing and again at
 * approval. A decision is taken once: concurrent approvals of one application create one branch.
 * The endpoint table is `branchesApi` at the end of this file.
 */

export const APPLICATION_STATES = ['pending', 'approved', 'rejected'] as const;
export type ApplicationState = (typeof APPLICATION_STATES)[number];
export const APPLICATION_SORTS = ['created_at', 'reviewed_at', 'name'] as const;
export const REJECT_REASON_MAX = 200;

export const branchListQuery = listQuery(
  {
    /** Branch name, account name or applicant name (contains). */
    keyword: optionalText(64),
    state: z.enum(APPLICATION_STATES).optional(),
    /** The applicant (must be in the caller's subtree). */
    applicant_id: optionalId,
    region: regionFilter,
  },
  APPLICATION_SORTS,
);
export type BranchListQuery = z.infer<typeof branchListQuery>;

/** What an institution files: the future branch's fields and its account name. */
export const branchApplyBody = z.object({
  name: institutionFields.name,
  contact_name: institutionFields.contact_name,
  phone: institutionFields.phone,
  region: institutionFields.region,
  address: institutionFields.address,
  username: institutionUsername,
});
export type BranchApplyBody = z.infer<typeof branchApplyBody>;

export const branchApproveBody = z.object({ id: idSchema, password: initialPassword });
export type BranchApproveBody = z.infer<typeof branchApproveBody>;

export const branchRejectBody = z.object({ id: idSchema, reason: z.string().trim().min(1).max(REJECT_REASON_MAX) });
export type BranchRejectBody = z.infer<typeof branchRejectBody>;

export interface BranchApplication {
  id: number;
  applicant_id: number;
  applicant_name: string;
  /** The grade the branch gets (the applicant's plus one, at most 3). */
  branch_grade: InstitutionGrade;
  name: string;
  contact_name: string;
  phone: string;
  region: string[];
  address: string;
  username: string;
  state: ApplicationState;
  /** Why it was rejected. */
  reason: string;
  /** The branch created by the approval. */
  institution_id: number | null;
  reviewed_by: string | null;
  reviewed_at: string | null;
  created_at: string;
}

/** An approval: the new branch and its initial password (answered this once; null when the reviewer set it). */
export interface BranchApproved {
  id: number;
  institution_id: number;
  username: string;
  password: string | null;
}

export const branchesApi = defineEndpoints('branches', {
  list: get('/branch/list', { page: 'InspectionApply' }, branchListQuery, answer<ListResult<BranchApplication>>()),
  /** An institution applies for a branch of its own. */
  apply: post('/branch/apply', { button: 'branch:apply' }, branchApplyBody, idAnswer, { audit: 'branch_application' }),
  /** The platform approves: the branch and its login are created. */
  approve: post('/branch/approve', { button: 'branch:review' }, branchApproveBody, answer<BranchApproved>(), { audit: 'branch_application' }),
  reject: post('/branch/reject', { button: 'branch:review' }, branchRejectBody, nullAnswer, { audit: 'branch_application' }),
});
