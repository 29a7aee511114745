import { useMemo } from 'react';
import Alert from 'antd/es/alert';
import Form from 'antd/es/form';
import TreeSelect from 'antd/es/tree-select';
import { useTranslation } from 'react-i18next';
import { gradeFits, type InstitutionOption, type InstitutionRow } from '@app/contract/api/institutions';
import { FormModal } from '../../components/FormModal';
import { useInstitutionOptions } from '../../components/InstitutionSelect';
import { useMoveInstitution } from './api';

interface Values {
  parent_id: number;
}

interface Node {
  value: number;
  title: string;
  key: number;
  disabled: boolean;
  children: Node[];
}

/** The tree of possible parents: those the grade rule allows, never the row itself or its descendants. */
export function parentChoices(options: InstitutionOption[], row: Pick<InstitutionRow, 'id' | 'grade'>): Node[] {
  const parentOf = new Map(options.map((o) => [o.id, o.parent_id]));
  const inside = (id: number) => {
    for (let cur: number | null | undefined = id; cur != null; cur = parentOf.get(cur)) if (cur === row.id) return true;
    return false;
  };
  const nodes = new Map<number, Node>(options.map((o) => [o.id, { value: o.id, key: o.id, title: o.name, disabled: inside(o.id) || !gradeFits(row.grade, o.grade), children: [] }]));
  const roots: Node[] = [];
  for (const o of options) {
    const node = nodes.get(o.id)!;
    const parent = o.parent_id != null ? nodes.get(o.parent_id) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** Admins: an institution and its whole subtree under another parent the grade rule allows. */
export function MoveDialog({ row, onClose }: { row: InstitutionRow | null; onClose: () => void }) {
  const { t } = useTranslation('institutions');
  const { data, isFetching } = useInstitutionOptions();
  const move = useMoveInstitution(t('moved'));
  const treeData = useMemo(() => (row && data ? parentChoices(data, row) : []), [data, row]);

  return (
    <FormModal<Values>
      open={!!row}
      title={t('move.title', { name: row?.name ?? '' })}
      initialValues={{ parent_id: row?.parent_id ?? undefined }}
      onClose={onClose}
      onSubmit={(v) => move.mutateAsync({ id: row!.id, parent_id: v.parent_id })}
      okText={t('action.move')}
      width={520}
      testId="institution-move"
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('move.help')} />
      <Form.Item name="parent_id" label={t('move.parent')} rules={[{ required: true, message: t('common:form.requiredSelect', { field: t('move.parent') }) }]}>
        <TreeSelect<number>
          showSearch={{ treeNodeFilterProp: 'title' }}
          treeDefaultExpandAll
          loading={isFetching}
          treeData={treeData}
          popupMatchSelectWidth={false}
          data-testid="institution-move-parent"
        />
      </Form.Item>
    </FormModal>
  );
}
