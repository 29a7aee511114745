/**
 * Delete with confirmation for master data. The server refuses to delete a record still in use
 * ("Cannot delete: still used by 2 schematic diagram(s) (…)"); that refusal is shown in a dialog
 * of its own rather than a toast, so the user can read what holds the record.
 */
import App from 'antd/es/app';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useConfirmDelete } from './confirm';
import { api, isApiError } from '../lib/api';

export interface GuardedDeleteOptions {
  /** The delete call, e.g. '/acupoint/del'. */
  path: string;
  id: number;
  /** Shown in the question. */
  name: string;
  content?: string;
  /** Query paths to refetch after a delete. */
  invalidate: string[];
  onDeleted?: () => void;
}

export function useGuardedDelete() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const confirmDelete = useConfirmDelete();
  return (o: GuardedDeleteOptions) =>
    confirmDelete({
      name: o.name,
      content: o.content,
      onOk: async () => {
        try {
          await api.post(o.path, { id: o.id }, { silent: true });
        } catch (err) {
          if (!isApiError(err) || err.kind !== 'business') throw err; // transport errors were shown; the dialog stays for a retry
          modal.error({
            title: t('confirm.cannotDelete', { name: o.name }),
            content: <div data-testid="delete-refused">{err.message}</div>,
            okText: t('form.ok'),
            okButtonProps: { 'data-testid': 'delete-refused-ok' },
          });
          return;
        }
        await Promise.all(o.invalidate.map((p) => qc.invalidateQueries({ queryKey: [p] })));
        void message.success(t('confirm.deleted'));
        o.onDeleted?.();
      },
    });
}
