export * from './list';
export { FormModal, useFormModal, applyServerErrors, type FormModalProps } from './FormModal';
export { useConfirmDelete, type ConfirmDeleteOptions } from './confirm';
export { RowActions, type RowAction } from './RowActions';
export { Money } from './Money';
export { RelativeTime } from './RelativeTime';
export { Access, useAccess } from '../lib/access';
