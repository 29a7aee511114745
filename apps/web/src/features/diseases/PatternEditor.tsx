/** Rows of meridian + status (excess / deficient / imbalanced): the pattern that flags a disease. */
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import Tooltip from 'antd/es/tooltip';
import DeleteOutlined from '@ant-design/icons/es/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/es/icons/PlusOutlined';
import { useTranslation } from 'react-i18next';
import { MERIDIANS, PATTERN_STATUSES } from '@app/contract/api/meridians';
import { DISEASE_LIMITS, type MeridianCondition } from '@app/contract/api/diseases';
import { useMeridianName } from '../../components/meridian';
import { patternIssues, PATTERN_SYMBOL } from './pattern';

export const MAX_CONDITIONS = DISEASE_LIMITS.maxConditions;

export function PatternEditor() {
  const { t } = useTranslation('diseases');
  const { label } = useMeridianName();
  return (
    <Form.List
      name="pattern"
      rules={[
        {
          validator: async (_, list: unknown[] | undefined) => {
            if (!list?.length) throw new Error(t('pattern.empty'));
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => {
        const all = fields.flatMap((f) => [
          ['pattern', f.name, 'meridian'],
          ['pattern', f.name, 'status'],
        ]);
        return (
          <div className="pattern-editor" data-testid="pattern-editor">
            {fields.length ? (
              <div className="pattern-head" aria-hidden>
                <span />
                <span>{t('pattern.meridian')}</span>
                <span>{t('pattern.status')}</span>
                <span />
              </div>
            ) : null}
            {fields.map((f, i) => (
              <div className="pattern-row" key={f.key} data-testid={`pattern-row-${i}`}>
                <span className="pattern-index">{i + 1}</span>
                <Form.Item
                  name={[f.name, 'meridian']}
                  dependencies={all.filter((p) => p[1] !== f.name)}
                  rules={[
                    { required: true, message: t('common:form.requiredSelect', { field: t('pattern.meridian') }) },
                    ({ getFieldValue }) => ({
                      validator: async () => {
                        const list = getFieldValue('pattern') as Partial<MeridianCondition>[] | undefined;
                        const issue = patternIssues(list).get(f.name);
                        const row = list?.[f.name];
                        if (issue === 'duplicate') throw new Error(t('pattern.duplicate', { meridian: row?.meridian, status: t(`status.${row?.status}`) }));
                        if (issue === 'conflict') throw new Error(t('pattern.conflict', { meridian: row?.meridian }));
                      },
                    }),
                  ]}
                  style={{ marginBottom: 8 }}
                >
                  <Select
                    showSearch={{ optionFilterProp: 'label' }}
                    placeholder={t('pattern.meridianPlaceholder')}
                    options={MERIDIANS.map((m) => ({ value: m, label: label(m) }))}
                    aria-label={`${t('pattern.meridian')} ${i + 1}`}
                    data-testid={`pattern-meridian-${i}`}
                  />
                </Form.Item>
                <Form.Item name={[f.name, 'status']} rules={[{ required: true, message: t('common:form.requiredSelect', { field: t('pattern.status') }) }]} style={{ marginBottom: 8 }}>
                  <Radio.Group
                    optionType="button"
                    size="middle"
                    options={PATTERN_STATUSES.map((s) => ({ value: s, label: `${PATTERN_SYMBOL[s]} ${t(`status.${s}`)}` }))}
                    aria-label={`${t('pattern.status')} ${i + 1}`}
                    data-testid={`pattern-status-${i}`}
                  />
                </Form.Item>
                <Tooltip title={t('pattern.remove')}>
                  <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={`${t('pattern.remove')} ${i + 1}`} />
                </Tooltip>
              </div>
            ))}
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ status: 'excess' })} disabled={fields.length >= MAX_CONDITIONS} block data-testid="pattern-add">
              {t('pattern.add')}
            </Button>
            <Form.ErrorList errors={errors} />
          </div>
        );
      }}
    </Form.List>
  );
}
