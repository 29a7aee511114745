/**
 * Delete with confirmation for master data. The server refuses to delete a record still in use
 * ("Cannot delete: still used by 2 schematic diagrams (…)"); that refusal is shown in a dialog
 * of its own rather than a toast, so the user can read what holds the record.
 */
import { useCallback } from 'react';
import App from 'antd/es/app';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useConfirmDelete } from './confirm';
import { invalidates, type ModuleName } from './list/endpoint-queries';
import { call, isApiError, type EndpointName, type Input } from '../lib/api';

/** Endpoints whose input is `{ id }` alone: the delete calls. */
type DeleteEndpoint = { [N in EndpointName]: [keyof Input<N>] extends ['id'] ? ({ id: number } extends Input<N> ? N : never) : never }[EndpointName];

export interface GuardedDeleteOptions {
  /** The delete call, e.g. 'acupoints.remove'. */
  endpoint: DeleteEndpoint;
  id: number;
  /** Shown in the question. */
  name: string;
  content?: string;
  /** Endpoints or modules whose cached answers are refetched after a delete. */
  invalidate: (EndpointName | ModuleName)[];
  onDeleted?: () => void;
}

export function useGuardedDelete() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const confirmDelete = useConfirmDelete();
  return useCallback(
    (o: GuardedDeleteOptions) =>
      confirmDelete({
        name: o.name,
        content: o.content,
        onOk: async () => {
          try {
            await call(o.endpoint, { id: o.id } as Input<DeleteEndpoint>, { silent: true });
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
          await qc.invalidateQueries({ predicate: (q) => invalidates(o.invalidate, q.queryKey) });
          void message.success(t('confirm.deleted'));
          o.onDeleted?.();
        },
      }),
    [confirmDelete, modal, message, qc, t],
  );
}
