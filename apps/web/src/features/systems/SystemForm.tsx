import Col from 'antd/es/col';
import Form from 'antd/es/form';
import InputNumber from 'antd/es/input-number';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { MASTER_LIMITS, MERIDIANS } from '@app/contract/api/meridians';
import { MERIDIAN_WEIGHT_MAX, type SystemRow, type SystemTreeNode } from '@app/contract/api/systems';
import type { L10n } from '@app/contract/i18n';
import { FormModal } from '../../components/FormModal';
import { cleanL10n, emptyL10n, useText } from '../../components/l10n-text';
import { L10nFields } from '../../components/L10nFields';
import { useAddSystem, useEditSystem } from './api';
import { toWireWeights, type WeightInputs } from './weights';
import { WeightBars } from './WeightBars';

interface SystemFormValues {
  parent_id: number | null;
  name: L10n;
  weights: WeightInputs;
  sort: number | null;
}

export interface SystemDialog {
  open: boolean;
  record: SystemRow | null;
  /** Create: the body system the new subsystem belongs to (null = a new body system). */
  parentId: number | null;
}

export function SystemForm({ state, onClose, bodies }: { state: SystemDialog; onClose: () => void; bodies: SystemTreeNode[] }) {
  const { t } = useTranslation('systems');
  const text = useText();
  const [form] = Form.useForm<SystemFormValues>();
  const weights = Form.useWatch('weights', form);
  const parentId = Form.useWatch('parent_id', form);
  const add = useAddSystem();
  const edit = useEditSystem();
  const r = state.record;
  const hasChildren = (r?.child_count ?? 0) > 0;

  const initial: SystemFormValues = r ? { parent_id: r.parent_id, name: r.name, weights: r.weights, sort: r.sort } : { parent_id: state.parentId, name: emptyL10n(), weights: {}, sort: 0 };

  const submit = async (v: SystemFormValues) => {
    const body = { parent_id: v.parent_id ?? null, name: cleanL10n(v.name), weights: toWireWeights(v.weights), sort: v.sort ?? 0 };
    if (r) await edit.mutateAsync({ ...body, id: r.id });
    else await add.mutateAsync(body);
  };

  const title = r
    ? t('form.editTitle', { name: text(r.name) })
    : state.parentId != null
      ? t('form.createSubTitle', { name: text(bodies.find((b) => b.id === state.parentId)?.name) })
      : t('form.createTitle');

  return (
    <FormModal<SystemFormValues>
      open={state.open}
      form={form}
      width={Math.min(760, window.innerWidth - 24)}
      title={title}
      initialValues={initial}
      onClose={onClose}
      onSubmit={submit}
      testId="system-form"
    >
      <Row gutter={16}>
        <Col xs={24} sm={16}>
          <Form.Item name="parent_id" label={t('col.parent')} extra={hasChildren ? t('form.parentLocked') : parentId == null ? t('form.bodyHint') : t('form.subHint')}>
            <Select
              allowClear
              disabled={hasChildren}
              placeholder={t('form.noParent')}
              options={bodies.filter((b) => b.id !== r?.id).map((b) => ({ value: b.id, label: text(b.name) }))}
              data-testid="system-parent"
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item name="sort" label={t('col.sort')}>
            <InputNumber min={0} max={MASTER_LIMITS.sortMax} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <L10nFields name="name" label={t('col.name')} required testId="system-name" />
      <Form.Item label={t('col.weights')} extra={t('form.weightsHint')} style={{ marginBottom: 8 }}>
        <div className="weight-editor">
          <WeightBars weights={weights} size="large" />
          <Row gutter={[10, 0]} className="weight-inputs">
            {MERIDIANS.map((m) => (
              <Col xs={12} sm={8} md={6} key={m}>
                <Form.Item
                  name={['weights', m]}
                  label={
                    <span>
                      <span className="mono">{m}</span> <span className="master-dim">{t(`common:meridian.${m}`)}</span>
                    </span>
                  }
                  rules={[{ type: 'number', min: 0, max: MERIDIAN_WEIGHT_MAX, message: t('form.weightRange', { max: MERIDIAN_WEIGHT_MAX }) }]}
                  style={{ marginBottom: 10 }}
                >
                  <InputNumber min={0} max={MERIDIAN_WEIGHT_MAX} step={1} placeholder="0" style={{ width: '100%' }} data-testid={`weight-${m}`} />
                </Form.Item>
              </Col>
            ))}
          </Row>
        </div>
      </Form.Item>
    </FormModal>
  );
}
