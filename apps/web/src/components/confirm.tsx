import { useCallback } from 'react';
import App from 'antd/es/app';
import { useTranslation } from 'react-i18next';

export interface ConfirmDeleteOptions {
  /** Name of the record, shown in the question. */
  name?: string;
  title?: string;
  content?: string;
  /** Does the deletion; the dialog waits for it (and stays open if it throws). */
  onOk: () => Promise<unknown>;
}

/** `const confirmDelete = useConfirmDelete(); confirmDelete({ name: row.name, onOk: () => del.mutateAsync({ id: row.id }) })`. */
export function useConfirmDelete() {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    (opts: ConfirmDeleteOptions) =>
      modal.confirm({
        title: opts.title ?? (opts.name ? t('confirm.deleteNamed', { name: opts.name }) : t('confirm.deleteTitle')),
        content: opts.content ?? t('confirm.deleteText'),
        okText: t('confirm.delete'),
        okButtonProps: { danger: true, 'data-testid': 'confirm-delete-ok' },
        cancelText: t('form.cancel'),
        onOk: () => opts.onOk(),
      }),
    [modal, t],
  );
}
