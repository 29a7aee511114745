import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import Modal from 'antd/es/modal';
import Space from 'antd/es/space';
import type { FormInstance, FormProps } from 'antd';
import Portal from '@rc-component/portal';
import { useTranslation } from 'react-i18next';
import { applyServerErrors } from './server-errors';
import { useDirtyGuard } from './useDirtyGuard';

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
 * Esc for an open dialog. antd answers Esc through one stack of portals where only the top one acts; a dialog
 * rendered while closed (`forceRender`, which keeps the form connected) sits in that stack from the start, so on a
 * page with several of them Esc reached the last one mounted, not the one shown. The dialogs' own Esc is off
 * (`keyboard={false}`) and this empty portal joins the stack when the dialog opens, on top of the closed ones and
 * under any popup opened inside it (a select's list closes first).
 */
function EscToClose({ open, onEsc }: { open: boolean; onEsc: () => void }) {
  return (
    <Portal
      open={open}
      onEsc={({ top, event }) => {
        if (!top) return;
        event.stopPropagation();
        onEsc();
      }}
    >
      <span hidden />
    </Portal>
  );
}

/**
 * Create/edit dialog (or drawer) around an antd Form. Validates, calls onSubmit, closes on success;
 * on a 400 with `datas.fields` the messages appear under the matching fields. A form with changes asks before
 * it is dropped (Esc, the close button, Cancel, the drawer's mask, a move to another page: useDirtyGuard).
 */
export function FormModal<V extends object>(props: FormModalProps<V>) {
  const { open, title, onClose, initialValues, onSubmit, children, variant = 'modal', width, layout = 'vertical', okText, testId } = props;
  const { t } = useTranslation();
  const [own] = Form.useForm<V>();
  const form = props.form ?? own;
  const [saving, setSaving] = useState(false);
  const opening = useOpening(open);
  // While a save runs, its own close (or a page the caller opens after it) drops nothing.
  const submitting = useRef(false);
  // Unsaved changes: a field the person changed whose values now differ from what the dialog opened with. The
  // values are taken once the fields have mounted (a control may set its value as it mounts, which "touches" it).
  const baseline = useRef<string | null>(null);
  const valuesText = () => {
    try {
      return JSON.stringify(form.getFieldsValue(true));
    } catch {
      return null;
    }
  };
  const dirty = () => open && !submitting.current && form.isFieldsTouched() && (baseline.current === null || valuesText() !== baseline.current);
  const guard = useDirtyGuard({ open, dirty, onClose });
  const requestClose = guard.requestClose;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the values are applied when the dialog opens, not again when the parent re-renders with a new initialValues object (that would wipe the user's edits)
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (initialValues) form.setFieldsValue(initialValues as never);
  }, [open]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: taken at each opening, after the effect above applied the values
  useEffect(() => {
    baseline.current = null;
    if (!open) return;
    const timer = setTimeout(() => {
      baseline.current = valuesText();
    }, 0);
    return () => clearTimeout(timer);
  }, [open]);

  const submit = async () => {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    submitting.current = true;
    try {
      await onSubmit(values);
      onClose();
    } catch (err) {
      applyServerErrors(form, err);
    } finally {
      submitting.current = false;
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
        onClose={requestClose}
        size={width ?? 560}
        destroyOnHidden
        forceRender
        keyboard={false}
        data-testid={testId}
        extra={
          <Space>
            <Button onClick={requestClose}>{t('form.cancel')}</Button>
            <Button key={opening} type="primary" loading={saving} onClick={submit}>
              {okText ?? t('form.save')}
            </Button>
          </Space>
        }
      >
        {body}
        <EscToClose open={open} onEsc={requestClose} />
      </Drawer>
    );
  }
  return (
    <Modal
      open={open}
      title={title}
      onCancel={requestClose}
      footer={[
        <Button key="cancel" onClick={requestClose}>
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
      keyboard={false}
      data-testid={testId}
    >
      {body}
      <EscToClose open={open} onEsc={requestClose} />
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
