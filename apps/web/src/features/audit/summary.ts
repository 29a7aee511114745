import type { TFunction } from 'i18next';
import type { AuditRow } from '@app/contract/api/audit';

/**
 * One line saying what an access-audit row records, in the reader's language: a sign-in (ok, or refused
 * and why), a sign-out, a read of one record, an export of a list with its rows, a refused write. Null
 * for a write that went through (the page shows its endpoint and changed fields instead).
 */
export function summaryOf(r: Pick<AuditRow, 'event' | 'outcome' | 'reason' | 'endpoint' | 'record_type' | 'record_id' | 'rows'>, t: TFunction): string | null {
  const reason = r.reason ? t(`reason.${r.reason}`) : '';
  const record = r.record_type ? t(`recordType.${r.record_type}`, { defaultValue: r.record_type }) : '';
  switch (r.event) {
    case 'sign_in':
      return r.outcome === 'ok' ? t('summary.signIn') : t('summary.signInRefused', { reason });
    case 'sign_out':
      // The Security page's calls: one of one's sessions, all the others, or (the platform) another account's.
      if (r.endpoint === 'sessions.end') return t('summary.sessionEnded');
      if (r.endpoint === 'sessions.endOthers') return t('summary.sessionsEndedOthers', { count: r.rows ?? 0 });
      if (r.endpoint === 'sessions.endAccount') return t('summary.sessionsEndedAccount', { record, id: r.record_id ?? '—', count: r.rows ?? 0 });
      return t('summary.signOut');
    case 'read':
      return t(r.outcome === 'ok' ? 'summary.read' : 'summary.readRefused', { record, id: r.record_id ?? '—', reason });
    case 'export': {
      const list = t(`list.${r.endpoint.replace('.', '_')}`, { defaultValue: r.endpoint });
      return t(r.reason === 'cancelled' ? 'summary.exportCancelled' : 'summary.export', { list, count: r.rows ?? 0 });
    }
    default:
      return r.outcome === 'refused' ? t('summary.writeRefused', { reason }) : null;
  }
}
