import Form from 'antd/es/form';
import InputNumber from 'antd/es/input-number';
import { useTranslation } from 'react-i18next';
import type { DiseaseTreeNode } from '@app/contract/api/diseases';
import { MASTER_LIMITS } from '@app/contract/api/meridians';
import type { L10n } from '@app/contract/i18n';
import { FormModal, type useFormModal } from '../../components/FormModal';
import { cleanL10n, emptyL10n, useText } from '../../components/l10n-text';
import { L10nFields } from '../../components/L10nFields';
import { useAddCategory, useEditCategory } from './api';

interface CategoryFormValues {
  name: L10n;
  sort: number | null;
}

export function CategoryForm({ dlg, onCreated }: { dlg: ReturnType<typeof useFormModal<DiseaseTreeNode>>; onCreated?: (id: number) => void }) {
  const { t } = useTranslation('diseases');
  const text = useText();
  const add = useAddCategory();
  const edit = useEditCategory();
  return (
    <FormModal<CategoryFormValues>
      open={dlg.open}
      width={Math.min(640, window.innerWidth - 24)}
      title={dlg.isEdit ? t('category.editTitle', { name: text(dlg.record!.name) }) : t('category.createTitle')}
      initialValues={dlg.record ? { name: dlg.record.name, sort: dlg.record.sort } : { name: emptyL10n(), sort: 0 }}
      onClose={dlg.close}
      onSubmit={async (v) => {
        const body = { name: cleanL10n(v.name), sort: v.sort ?? 0 };
        if (dlg.isEdit) await edit.mutateAsync({ ...body, id: dlg.record!.id });
        else onCreated?.((await add.mutateAsync(body)).id);
      }}
      testId="category-form"
    >
      <L10nFields name="name" label={t('category.name')} required testId="category-name" />
      <Form.Item name="sort" label={t('col.sort')} extra={t('form.sortHint')}>
        <InputNumber min={0} max={MASTER_LIMITS.sortMax} precision={0} style={{ width: 160 }} />
      </Form.Item>
    </FormModal>
  );
}
