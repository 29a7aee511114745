import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idList, idSchema, nullableId, optionalId, post } from '../endpoint';
import { dateTime, EXPORT_FORMATS, exportQuery, listQuery, optionalText, withMessage } from './common';
import { type BulkAnswer, bulkIds } from './bulk';

/*
 * Activation codes (`/activation-code/index`, route ActivationCode, grade 0 by address only; buttons
 * activation:*), their redemption, and the back-office activation records (`/institutional/
 * institution-end-record`, route InstitutionEndRecord, grades 0-3 scoped to the caller's subtree).
 * The endpoint table is `codesApi` at the end of this file; two paths are fixed by device-api.md
 * (`/activation_code/generate` and `/base_index/use_activation_code_institution`).
 *
 * A code is 16 Crockford base32 symbols (80 bits from the server's CSPRNG), shown `XXXX-XXXX-XXXX-XXXX`.
 * Input is normalised: case, spaces and dashes ignored, I/L read as 1 and O as 0.
 */

export const CODE_SCOPES = ['institution', 'device'] as const;
export type CodeScope = (typeof CODE_SCOPES)[number];
/** `expired` is not stored: an unused code whose valid_until has passed. */
export const CODE_STATUSES = ['unused', 'used', 'void', 'expired'] as const;
export type CodeStatus = (typeof CODE_STATUSES)[number];
export const CODE_LIMITS = { maxCount: 10_000, maxDays: 3650, remarkLength: 200, maxSelected: 500, inputLength: 64 } as const;

/** Crockford's base32 alphabet: digits and letters without I, L, O, U. */
export const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CODE_LENGTH = 16;
const WELL_FORMED = /^[0-9A-HJKMNP-TV-Z]{16}$/;

/** What a person typed or pasted, as the stored symbols: upper case, no spaces or dashes, I/L -> 1, O -> 0. */
export function normalizeCode(text: string): string {
  return text
    .toUpperCase()
    .replace(/[\s\-_‐‑–—]+/g, '')
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0');
}
export const isWellFormedCode = (normalized: string) => WELL_FORMED.test(normalized);
/** `ABCDEFGHJKMNPQRS` -> `ABCD-EFGH-JKMN-PQRS`. */
export const formatCode = (normalized: string) => normalized.replace(/(.{4})(?=.)/g, '$1-');
/** A code as lists show it: the first and last group, `ABCD-****-****-WXYZ`. */
export const maskCode = (normalized: string) => `${normalized.slice(0, 4)}-****-****-${normalized.slice(-4)}`;

/** The code field of a redemption: any text a person pastes, normalised, then 16 Crockford symbols. */
export const codeInput = z.string().max(CODE_LIMITS.inputLength).transform(normalizeCode).refine(isWellFormedCode, withMessage('codeMalformed'));

// ---------------------------------------------------------------------------------------------
// Generation, list, void, assign, export (grade 0)
// ---------------------------------------------------------------------------------------------

interface GenerateFields {
  scope: CodeScope;
  days?: number | null;
  package_id?: number | null;
  valid_until?: string | null;
}

/** Institution codes grant days; device codes grant days or a package (exactly one); valid_until lies ahead. */
function checkGrant(v: GenerateFields, ctx: z.RefinementCtx) {
  const issue = (path: string, msg: Parameters<typeof withMessage>[0]) => ctx.addIssue({ code: 'custom', path: [path], ...withMessage(msg) });
  if (v.scope === 'institution') {
    if (v.days == null) issue('days', 'codeDaysRequired');
    if (v.package_id != null) issue('package_id', 'codePackageNotForInstitution');
  } else if (v.scope === 'device') {
    if ((v.days == null) === (v.package_id == null)) issue(v.days == null ? 'days' : 'package_id', 'codeDaysOrPackage');
  }
  if (v.valid_until != null && Date.parse(v.valid_until) <= Date.now()) issue('valid_until', 'codeValidUntilPast');
}

export const codeGenerateFields = {
  scope: z.enum(CODE_SCOPES),
  /** Days of term granted (institution codes; device codes without a package). */
  days: z.number().int().min(1).max(CODE_LIMITS.maxDays).nullish(),
  /** Device codes: a package whose uses or days the code adds. */
  package_id: idSchema.nullish(),
  count: z.number().int().min(1).max(CODE_LIMITS.maxCount),
  /** Unused codes can no longer be redeemed after this time (none: no limit). */
  valid_until: dateTime.nullish(),
  remark: z.string().trim().max(CODE_LIMITS.remarkLength).optional().default(''),
};
export const codeGenerateBody = z.object(codeGenerateFields).superRefine(checkGrant);
export type CodeGenerateBody = z.infer<typeof codeGenerateBody>;
/** Fixed by device-api.md: the batch number and every code, grouped. The only time codes leave the server unasked. */
export interface CodeGenerateAnswer {
  batch_no: string;
  codes: string[];
}

export const CODE_BATCH_SORTS = ['created_at', 'count'] as const;
export const codeBatchListQuery = listQuery(
  {
    /** Batch number or remark (contains). */
    keyword: optionalText(64),
    scope: z.enum(CODE_SCOPES).optional(),
    owner_institution_id: optionalId,
  },
  CODE_BATCH_SORTS,
);
export type CodeBatchListQuery = z.infer<typeof codeBatchListQuery>;

export interface CodeCounts {
  unused: number;
  used: number;
  void: number;
  expired: number;
}
export interface CodeBatchRow extends CodeCounts {
  id: number;
  batch_no: string;
  scope: CodeScope;
  days: number | null;
  package_id: number | null;
  package_name: string | null;
  count: number;
  valid_until: string | null;
  remark: string;
  /** The institution the batch's unused codes were last assigned to (null: the platform's). */
  owner_institution_id: number | null;
  owner_institution_name: string | null;
  created_by: string;
  created_at: string;
}

export const CODE_SORTS = ['created_at', 'used_at', 'valid_until'] as const;
export const codeListQuery = listQuery(
  {
    batch_id: optionalId,
    scope: z.enum(CODE_SCOPES).optional(),
    status: z.enum(CODE_STATUSES).optional(),
    owner_institution_id: optionalId,
  },
  CODE_SORTS,
);
export type CodeListQuery = z.infer<typeof codeListQuery>;
export const codeListExportQuery = exportQuery(codeListQuery);
export type CodeListExportQuery = z.infer<typeof codeListExportQuery>;

export interface CodeRow {
  id: number;
  batch_id: number;
  batch_no: string;
  /** Masked: `ABCD-****-****-WXYZ` (the whole code only in a batch export). */
  code: string;
  scope: CodeScope;
  days: number | null;
  package_id: number | null;
  package_name: string | null;
  status: CodeStatus;
  owner_institution_id: number | null;
  owner_institution_name: string | null;
  valid_until: string | null;
  used_at: string | null;
  used_by_institution_id: number | null;
  used_by_institution_name: string | null;
  used_by_device_id: number | null;
  used_by_device_serial: string | null;
  created_at: string;
}

/** `id` is the batch; without code_ids every unused code of the batch is voided. */
export const codeVoidBody = z.object({ id: idSchema, code_ids: idList(CODE_LIMITS.maxSelected).optional() });
export type CodeVoidBody = z.infer<typeof codeVoidBody>;
/** The code list's bulk void: codes of any batches, each voided by `voidCodes` itself, per row (api/bulk.ts). */
export const codeBulkVoidBody = z.object({ ids: bulkIds });
export type CodeBulkVoidBody = z.infer<typeof codeBulkVoidBody>;
/** Assigns the batch's unused codes to an institution to sell (null: back to the platform). */
export const codeAssignBody = z.object({ id: idSchema, institution_id: nullableId });
export type CodeAssignBody = z.infer<typeof codeAssignBody>;
/** How many codes a void or an assignment changed. */
export interface CodeCountAnswer {
  count: number;
}
/** A batch's codes in full, as a file: every code with its state. Audited (the codes are revealed). */
export const codeExportBody = z.object({ id: idSchema, format: z.enum(EXPORT_FORMATS) });
export type CodeExportBody = z.infer<typeof codeExportBody>;

// ---------------------------------------------------------------------------------------------
// Redemption (institutions)
// ---------------------------------------------------------------------------------------------

export const codeRedeemBody = z.object({ code: codeInput });
export type CodeRedeemBody = z.infer<typeof codeRedeemBody>;
/** Fixed by device-api.md: the institution's new term. */
export interface CodeRedeemAnswer {
  term_expires_at: string;
}
/** A device code on a device the caller owns (`id`: the device). */
export const codeRedeemDeviceBody = z.object({ id: idSchema, code: codeInput });
export type CodeRedeemDeviceBody = z.infer<typeof codeRedeemDeviceBody>;
export interface CodeRedeemDeviceAnswer {
  status: 'inactive' | 'active' | 'disabled';
  expires_at: string | null;
  remaining_uses: number | null;
}

// ---------------------------------------------------------------------------------------------
// Activation records (grades 0-3, scoped)
// ---------------------------------------------------------------------------------------------

const dateOnly = z.iso.date();
export const RECORD_SORTS = ['created_at'] as const;
export const activationRecordFilters = {
  date_from: dateOnly.optional(),
  date_to: dateOnly.optional(),
  scope: z.enum(CODE_SCOPES).optional(),
  /** The institution whose term or device the code renewed (within the caller's subtree). */
  institution_id: optionalId,
};
export const activationRecordListQuery = listQuery(activationRecordFilters, RECORD_SORTS);
export type ActivationRecordListQuery = z.infer<typeof activationRecordListQuery>;
export const activationRecordExportQuery = exportQuery(activationRecordListQuery);
export type ActivationRecordExportQuery = z.infer<typeof activationRecordExportQuery>;

export interface ActivationRecordRow {
  id: number;
  /** Masked. */
  code: string;
  batch_no: string;
  scope: CodeScope;
  institution_id: number;
  institution_name: string;
  device_id: number | null;
  device_serial: string | null;
  package_id: number | null;
  package_name: string | null;
  days: number | null;
  /** Uses a count package added (device codes). */
  uses_added: number | null;
  term_before: string | null;
  term_after: string | null;
  uses_before: number | null;
  uses_after: number | null;
  operator_name: string;
  created_at: string;
}

export const codesApi = defineEndpoints('codes', {
  /** Fixed path and answer (device-api.md). Up to 10 000 codes in one batch. */
  generate: post('/activation_code/generate', { button: 'activation:generate' }, codeGenerateBody, answer<CodeGenerateAnswer>(), { audit: 'code_batch', stepUp: true }),
  batches: get('/activation_code/batches', { page: 'ActivationCode' }, codeBatchListQuery, answer<ListResult<CodeBatchRow>>()),
  /** Codes masked; status `expired` = unused past valid_until. */
  list: get('/activation_code/list', { page: 'ActivationCode' }, codeListQuery, answer<ListResult<CodeRow>>()),
  exportList: get('/activation_code/list_export', { button: 'activation:export' }, codeListExportQuery, answer<unknown>(), {
    raw: true,
    summary: 'Codes (masked, as the list shows them) as a CSV or XLSX file',
  }),
  voidCodes: post('/activation_code/void', { button: 'activation:void' }, codeVoidBody, answer<CodeCountAnswer>(), { audit: 'code_batch' }),
  /** Per row: refused codes (used, void, expired, unknown) named as the list shows them, with the reason. */
  bulkVoid: post('/activation_code/bulk_void', { button: 'activation:void' }, codeBulkVoidBody, answer<BulkAnswer>(), { audit: 'code_batch' }),
  assign: post('/activation_code/assign', { button: 'activation:assign' }, codeAssignBody, answer<CodeCountAnswer>(), { audit: 'code_batch' }),
  /** The batch's codes in full as CSV (UTF-8 with BOM) or XLSX; column titles in the caller's language. */
  exportBatch: post('/activation_code/export', { button: 'activation:export' }, codeExportBody, answer<unknown>(), {
    audit: 'code_batch',
    raw: true,
    summary: 'A batch of codes in full, as a CSV or XLSX file',
  }),
  /** Fixed path and answer (device-api.md): an institution code renews the caller's own term; an overdue institution's restricted key may call it. */
  redeemInstitution: post('/base_index/use_activation_code_institution', { session: true, kind: 'institution', restricted: true }, codeRedeemBody, answer<CodeRedeemAnswer>(), {
    audit: 'activation_record',
  }),
  /** A device code on a device the calling institution owns (the device list's row action; admins are refused: they own no device). */
  redeemDevice: post('/base_index/use_activation_code_device', { page: 'DeviceList' }, codeRedeemDeviceBody, answer<CodeRedeemDeviceAnswer>(), { audit: 'activation_record' }),
  records: get('/activation_record/list', { page: 'InstitutionEndRecord' }, activationRecordListQuery, answer<ListResult<ActivationRecordRow>>()),
  recordsExport: get('/activation_record/export', { button: 'activation_record:export' }, activationRecordExportQuery, answer<unknown>(), {
    raw: true,
    summary: 'Activation records as a CSV or XLSX file',
  }),
});
