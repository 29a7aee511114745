/**
 * The fields of the answers institutions read, written by hand: for every endpoint that answers some
 * institution identity of the permission table (permissions.test.ts), the paths that may carry a value
 * (`list[].name`; `a.*` is a whole subtree of content that is not scoped, such as an analysis), and the
 * paths each grade must never get a value for. The permission test walks every answer of every identity
 * and fails on a path that is not listed here or that is hidden from the caller's grade: a field added
 * to an answer later leaks nothing unnoticed, since its test fails until the field is listed and who may
 * see it is decided. An institution never sees its ancestors' figures (domain.md).
 */
export interface AnswerFields {
  fields: readonly string[];
  /** Paths that must be absent or null for callers of a grade (1-3). */
  hiddenFrom?: Partial<Record<1 | 2 | 3, readonly string[]>>;
}

// biome-ignore format: one endpoint a line
export const ANSWER_FIELDS: Record<string, AnswerFields> = {
  'auth.institutionInfo': { fields: ['avatar', 'id', 'institution_grade', 'introduction', 'name', 'overdue', 'term_expires_at', 'username'] },
  'auth.institutionLogin': { fields: ['id', 'key'] },
  'auth.login': { fields: ['id', 'key'] },
  'auth.logout': { fields: [] },
  'branches.list': { fields: ['capped', 'list[].address', 'list[].applicant_id', 'list[].applicant_name', 'list[].branch_grade', 'list[].contact_name', 'list[].created_at', 'list[].id', 'list[].institution_id', 'list[].name', 'list[].phone', 'list[].reason', 'list[].region[]', 'list[].reviewed_at', 'list[].reviewed_by', 'list[].state', 'list[].username', 'total'] },
  'codes.records': { fields: ['capped', 'list[].batch_no', 'list[].code', 'list[].created_at', 'list[].days', 'list[].device_id', 'list[].device_serial', 'list[].id', 'list[].institution_id', 'list[].institution_name', 'list[].operator_name', 'list[].package_id', 'list[].package_name', 'list[].scope', 'list[].term_after', 'list[].term_before', 'list[].uses_added', 'list[].uses_after', 'list[].uses_before', 'total'] },
  'equipment.list': { fields: ['capped', 'list[].activated_at', 'list[].created_at', 'list[].expires_at', 'list[].expiring', 'list[].id', 'list[].institution_id', 'list[].institution_name', 'list[].last_seen_at', 'list[].model', 'list[].name', 'list[].online', 'list[].remaining_uses', 'list[].remark', 'list[].reported_version', 'list[].serial', 'list[].status', 'list[].total_inspections', 'total'] },
  'finance.list': { fields: ['capped', 'list[].amount_cents', 'list[].balance_after_cents', 'list[].created_at', 'list[].id', 'list[].institution_id', 'list[].institution_name', 'list[].kind', 'list[].ref_id', 'list[].ref_type', 'total'] },
  'finance.payments': {
    hiddenFrom: {
      2: ['list[].l1_cents', 'list[].l1_institution_id', 'list[].platform_cents'],
      3: ['list[].l1_cents', 'list[].l1_institution_id', 'list[].l2_cents', 'list[].l2_institution_id', 'list[].platform_cents', 'totals.commission_cents'],
    },
    fields: ['capped', 'list[].amount_cents', 'list[].channel', 'list[].device_id', 'list[].device_serial', 'list[].id', 'list[].institution_id', 'list[].institution_name', 'list[].l1_cents', 'list[].l1_institution_id', 'list[].l2_cents', 'list[].l2_institution_id', 'list[].order_no', 'list[].package_id', 'list[].package_name', 'list[].paid_at', 'list[].platform_cents', 'list[].refund_reason', 'list[].refunded_at', 'list[].status', 'total', 'totals.amount_cents', 'totals.commission_cents', 'totals.count', 'totals.refunded_cents'] },
  'finance.payoutList': { fields: ['capped', 'list[].account_name', 'list[].account_no', 'list[].amount_cents', 'list[].bank', 'list[].created_at', 'list[].decided_at', 'list[].decided_by', 'list[].id', 'list[].institution_id', 'list[].institution_name', 'list[].reason', 'list[].status', 'list[].voucher', 'total'] },
  'finance.summary': { fields: ['balance_cents', 'ledger_sum_cents', 'pending_payout_cents'] },
  'inspections.detail': { fields: ['analysis.*', 'created_at', 'device.id', 'device.model', 'device.name', 'device.serial', 'id', 'inspection_no', 'institution.id', 'institution.name', 'latest_version', 'measured_at', 'readings.*', 'user.birth_date', 'user.gender', 'user.id', 'user.id_number', 'user.name', 'user.phone', 'version', 'versions[].created_at', 'versions[].created_by', 'versions[].version'] },
  'inspections.list': { fields: ['capped', 'list[].analysis_version', 'list[].device_id', 'list[].device_serial', 'list[].doctor_id', 'list[].doctor_name', 'list[].id', 'list[].inspection_no', 'list[].institution_id', 'list[].institution_name', 'list[].measured_at', 'list[].top_disease.en', 'list[].top_disease.es', 'list[].top_disease.ja', 'list[].top_disease.zh', 'list[].top_risk', 'list[].user_id', 'list[].user_name', 'list[].worst_level', 'total'] },
  'inspections.report': { fields: ['disclaimer', 'history[].id', 'history[].indices.*', 'history[].measured_at', 'history[].systems[].id', 'history[].systems[].level', 'history[].systems[].score', 'inspection.analysis.*', 'inspection.created_at', 'inspection.device.id', 'inspection.device.model', 'inspection.device.name', 'inspection.device.serial', 'inspection.id', 'inspection.inspection_no', 'inspection.institution.id', 'inspection.institution.name', 'inspection.latest_version', 'inspection.measured_at', 'inspection.readings.*', 'inspection.user.birth_date', 'inspection.user.gender', 'inspection.user.id', 'inspection.user.id_number', 'inspection.user.name', 'inspection.user.phone', 'inspection.version', 'inspection.versions[].created_at', 'inspection.versions[].created_by', 'inspection.versions[].version', 'share.expires_at', 'share.url'] },
  'inspections.shareList': { fields: ['list[].created_at', 'list[].created_by', 'list[].expires_at', 'list[].id', 'list[].url'] },
  'inspections.result': { fields: ['history[].id', 'history[].indices.*', 'history[].measured_at', 'history[].systems[].id', 'history[].systems[].level', 'history[].systems[].score', 'inspection.analysis.*', 'inspection.created_at', 'inspection.device.id', 'inspection.device.model', 'inspection.device.name', 'inspection.device.serial', 'inspection.id', 'inspection.inspection_no', 'inspection.institution.id', 'inspection.institution.name', 'inspection.latest_version', 'inspection.measured_at', 'inspection.readings.*', 'inspection.user.birth_date', 'inspection.user.gender', 'inspection.user.id', 'inspection.user.id_number', 'inspection.user.name', 'inspection.user.phone', 'inspection.version', 'inspection.versions[].created_at', 'inspection.versions[].created_by', 'inspection.versions[].version'] },
  'institutions.detail': { fields: ['address', 'child_count', 'contact_name', 'counts.children', 'counts.descendants', 'counts.devices', 'counts.open_payouts', 'created_at', 'expiring', 'grade', 'id', 'name', 'overdue', 'parent_id', 'parent_name', 'phone', 'region[]', 'status', 'term_expires_at', 'username'] },
  'institutions.list': { fields: ['capped', 'list[].address', 'list[].child_count', 'list[].contact_name', 'list[].created_at', 'list[].expiring', 'list[].grade', 'list[].id', 'list[].name', 'list[].overdue', 'list[].parent_id', 'list[].parent_name', 'list[].phone', 'list[].region[]', 'list[].status', 'list[].term_expires_at', 'list[].username', 'total'] },
  'institutions.options': { fields: ['[].grade', '[].id', '[].name', '[].parent_id'] },
  'institutions.subtree': { fields: ['capped', 'list[].address', 'list[].child_count', 'list[].contact_name', 'list[].created_at', 'list[].expiring', 'list[].grade', 'list[].id', 'list[].name', 'list[].overdue', 'list[].parent_id', 'list[].parent_name', 'list[].phone', 'list[].region[]', 'list[].status', 'list[].term_expires_at', 'list[].username'] },
  'params.publicValues': { fields: ['default_language', 'site_title'] },
  'regions.tree': { fields: ['source', 'tree[][]', 'tree[][][][]', 'tree[][][][][][]'] },
  'stats.finance': { fields: ['institution.grade', 'institution.id', 'institution.name', 'kpis.balance', 'kpis.commission', 'kpis.income', 'kpis.paidPayouts', 'kpis.pendingPayouts', 'range.from', 'range.granularity', 'range.to', 'series.balance[].key', 'series.balance[].value', 'series.commission[].key', 'series.commission[].value', 'series.income[].key', 'series.income[].value', 'series.payouts[].key', 'series.payouts[].value'] },
  'mfa.status': { fields: ['enabled', 'pending', 'recovery_codes_left', 'required'] },
  'preferences.get': { fields: ['columns[].key', 'columns[].visible', 'list', 'views[].filters.*', 'views[].id', 'views[].is_default', 'views[].name', 'views[].order', 'views[].sort', 'views[].updated_at'] },
  'notices.list': { fields: ['capped', 'list[].body', 'list[].created_at', 'list[].id', 'list[].kind', 'list[].level', 'list[].link', 'list[].read_at', 'list[].thing_id', 'list[].title', 'total', 'unread'] },
  'sessions.list': { fields: ['list[].created_at', 'list[].current', 'list[].id', 'list[].ip', 'list[].last_seen_at', 'list[].restricted', 'list[].user_agent'] },
};
