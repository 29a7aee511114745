import { useCallback, useEffect, useState, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import Modal from 'antd/es/modal';
import Space from 'antd/es/space';
import type { FormInstance, FormProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { applyServerErrors } from './server-errors';

export { applyServerErrors };

export interface FormModalProps<V extends object> {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  /** Values to start from (edit); omit for create. Applied each time the dialog opens. */
  initialValues?: Partial<V>;
  /** Save. Throw (e.g. the ApiError of a 400) to keep the dialog open; per-field messages are shown at the fields. */
  onSubmit: (values: V) => Promise<unknown>;
  children: ReactNode;
  /** 'drawer' for long forms. */
  variant?: 'modal' | 'drawer';
  width?: number;
  layout?: FormProps['layout'];
  /** Your own form instance (to watch fields); one is created otherwise. */
  form?: FormInstance<V>;
  okText?: ReactNode;
  testId?: string;
}

/**
 * Counts the openings of a dialog. A dialog that closes right after a save hides while its Save button's
 * loading icon is still animating out; hidden, that animation never ends, and the next opening would show
 * a button still carrying an invisible "loading" icon (screen readers read "loading Save"). Keyed by this
 * count, the footer buttons start fresh at every opening.
 */
export function useOpening(open: boolean): number {
  const [seen, setSeen] = useState({ open, count: open ? 1 : 0 });
  if (seen.open !== open) setSeen({ open, count: open ? seen.count + 1 : seen.count });
  return seen.count;
}

/**
 * Create/edit dialog (or drawer) around an antd Form. Validates, calls onSubmit, closes on success;
 * on a 400 with `datas.fields` the messages appear under the matching fields.
 */
export function FormModal<V extends object>(props: FormModalProps<V>) {
  const { open, title, onClose, initialValues, onSubmit, children, variant = 'modal', width, layout = 'vertical', okText, testId } = props;
  const { t } = useTranslation();
  const [own] = Form.useForm<V>();
  const form = props.form ?? own;
  const [saving, setSaving] = useState(false);
  const opening = useOpening(open);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the values are applied when the dialog opens, not again when the parent re-renders with a new initialValues object (that would wipe the user's edits)
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (initialValues) form.setFieldsValue(initialValues as never);
  }, [open]);

  const submit = async () => {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await onSubmit(values);
      onClose();
    } catch (err) {
      applyServerErrors(form, err);
    } finally {
      setSaving(false);
    }
  };

  const body = (
    <Form<V> form={form} layout={layout} onFinish={submit} preserve={false} data-testid={testId ? `${testId}-form` : undefined}>
      {children}
      {/* Enter in a field submits. */}
      <button type="submit" hidden aria-hidden tabIndex={-1} />
    </Form>
  );

  if (variant === 'drawer') {
    return (
      <Drawer
        open={open}
        title={title}
        onClose={onClose}
        size={width ?? 560}
        destroyOnHidden
        forceRender
        data-testid={testId}
        extra={
          <Space>
            <Button onClick={onClose}>{t('form.cancel')}</Button>
            <Button key={opening} type="primary" loading={saving} onClick={submit}>
              {okText ?? t('form.save')}
            </Button>
          </Space>
        }
      >
        {body}
      </Drawer>
    );
  }
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('form.cancel')}
        </Button>,
        <Button key={`ok-${opening}`} type="primary" loading={saving} onClick={submit}>
          {okText ?? t('form.save')}
        </Button>,
      ]}
      width={width ?? 560}
      destroyOnHidden
      forceRender
      mask={{ closable: false }}
      data-testid={testId}
    >
      {body}
    </Modal>
  );
}

/** State for a create/edit dialog: `const dlg = useFormModal<Row>(); dlg.openEdit(row)`. The functions keep their identity. */
export function useFormModal<R>() {
  const [state, setState] = useState<{ open: boolean; record: R | null }>({ open: false, record: null });
  const openCreate = useCallback(() => setState({ open: true, record: null }), []);
  const openEdit = useCallback((record: R) => setState({ open: true, record }), []);
  const close = useCallback(() => setState((s) => ({ ...s, open: false })), []);
  return { open: state.open, record: state.record, isEdit: state.record != null, openCreate, openEdit, close };
}
