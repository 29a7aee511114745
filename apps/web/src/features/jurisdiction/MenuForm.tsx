import { useMemo } from 'react';
import Alert from 'antd/es/alert';
import Col from 'antd/es/col';
import Divider from 'antd/es/divider';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Radio from 'antd/es/radio';
import Row from 'antd/es/row';
import Switch from 'antd/es/switch';
import TreeSelect from 'antd/es/tree-select';
import FolderOutlined from '@ant-design/icons/es/icons/FolderOutlined';
import FileOutlined from '@ant-design/icons/es/icons/FileOutlined';
import AppstoreAddOutlined from '@ant-design/icons/es/icons/AppstoreAddOutlined';
import { useTranslation } from 'react-i18next';
import { pickText } from '@app/contract/i18n';
import { MENU_SIGN_RE, menuFields, type MenuNode, type MenuType } from '@app/contract/api/jurisdiction';
import { FormModal, type useFormModal } from '../../components';
import { fieldRules, limitsOf } from '../../components/form-rules';
import { useSettings } from '../../lib/settings';
import type { Input as EndpointInput } from '../../lib/api';
import { useAddMenu, useEditMenu } from './api';
import { findNode, subtreeIds, typesFittingChildren, typesUnder } from '@app/contract/api/jurisdiction-rules';
import { IconPicker } from './IconPicker';
import { menuTypeKey } from './parts';

export type MenuDialogState = { mode: 'create'; parent: MenuNode | null } | { mode: 'edit'; node: MenuNode };

/** The form's values: parent 0 = top level; hidden as 0/1. */
interface Values {
  parent_id: number;
  type: MenuType;
  title: { zh: string; en: string; es: string; ja: string };
  sign: string;
  icon: string | null;
  sort: number;
  hidden: 0 | 1;
}

const TOP = 0;
const LOCKOUT_SIGN = 'menu:edit';
const TYPE_ICON = { 1: <FolderOutlined />, 2: <FileOutlined />, 3: <AppstoreAddOutlined /> };

interface ParentOption {
  value: number;
  title: string;
  disabled?: boolean;
  children?: ParentOption[];
}

/** Create (top level or under a parent) / edit one menu node. */
export function MenuForm({ dlg, tree }: { dlg: ReturnType<typeof useFormModal<MenuDialogState>>; tree: MenuNode[] }) {
  const { t } = useTranslation('jurisdiction');
  const lang = useSettings((s) => s.lang);
  const [form] = Form.useForm<Values>();
  const add = useAddMenu();
  const edit = useEditMenu();
  const state = dlg.record;
  const editing = state?.mode === 'edit' ? state.node : null;
  const builtin = !!editing?.builtin;

  const parentId = Form.useWatch('parent_id', form) ?? TOP;
  const type = Form.useWatch('type', form);
  const sign = Form.useWatch('sign', form);

  // Parents: directories and pages (buttons hold nothing), never the node itself or one below it.
  const excluded = useMemo(() => (editing ? subtreeIds(tree, editing.id) : new Set<number>()), [tree, editing]);
  const parentOptions = useMemo<ParentOption[]>(() => {
    const walk = (nodes: MenuNode[]): ParentOption[] =>
      nodes
        .filter((n) => n.type !== 3 && !excluded.has(n.id))
        .map((n) => {
          const children = walk(n.children);
          return { value: n.id, title: pickText(n.title, lang), children: children.length ? children : undefined };
        });
    return [{ value: TOP, title: t('menu.form.topLevel') }, ...walk(tree)];
  }, [tree, excluded, lang, t]);

  const parentType = parentId === TOP ? null : (findNode(tree, parentId)?.type ?? null);
  const allowed = useMemo(() => {
    const byParent = typesUnder(parentType);
    const byChildren = editing ? typesFittingChildren(editing.children) : [1, 2, 3];
    return new Set(byParent.filter((x) => byChildren.includes(x)));
  }, [parentType, editing]);

  const initialValues = useMemo<Partial<Values> | undefined>(() => {
    if (!state) return undefined;
    if (state.mode === 'edit') {
      const n = state.node;
      return { parent_id: n.parent_id ?? TOP, type: n.type, title: { ...n.title }, sign: n.sign, icon: n.icon, sort: n.sort, hidden: n.hidden };
    }
    const siblings = state.parent ? state.parent.children : tree;
    const nextSort = siblings.length ? Math.max(...siblings.map((s) => s.sort)) + 1 : 0;
    return {
      parent_id: state.parent?.id ?? TOP,
      type: typesUnder(state.parent?.type ?? null)[0] ?? 1,
      title: { zh: '', en: '', es: '', ja: '' },
      sign: '',
      icon: null,
      sort: nextSort,
      hidden: 0,
    };
  }, [state, tree]);

  const title = editing
    ? t('menu.editTitle', { name: pickText(editing.title, lang) })
    : state?.mode === 'create' && state.parent
      ? t('menu.createChildTitle', { parent: pickText(state.parent.title, lang) })
      : t('menu.createTitle');

  const submit = (v: Values) => {
    const common = { title: v.title, icon: v.type === 3 ? null : (v.icon ?? null), sort: v.sort ?? 0, hidden: v.hidden ? 1 : 0 } as const;
    if (editing && builtin) return edit.mutateAsync({ id: editing.id, ...common });
    const body: EndpointInput<'jurisdiction.menuAdd'> = { ...common, parent_id: v.parent_id || null, type: v.type, sign: v.sign.trim() };
    return editing ? edit.mutateAsync({ id: editing.id, ...body }) : add.mutateAsync(body);
  };

  const required = (field: string) => ({ required: true, whitespace: true, message: t('common:form.required', { field }) });
  const currentType: MenuType = type ?? initialValues?.type ?? 1;

  return (
    <FormModal<Values> open={dlg.open} title={title} onClose={dlg.close} form={form} initialValues={initialValues} onSubmit={submit} width={640} testId="menu-form">
      {builtin ? <Alert type="info" showIcon className="jur-form-alert" title={t('menu.builtinHint')} data-testid="builtin-alert" /> : null}
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name="parent_id" label={t('menu.form.parent')}>
            <TreeSelect<number>
              treeData={parentOptions}
              disabled={builtin}
              showSearch={{ treeNodeFilterProp: 'title' }}
              treeDefaultExpandedKeys={parentId ? [parentId] : []}
              popupMatchSelectWidth={false}
              styles={{ popup: { root: { maxHeight: 360, minWidth: 280 } } }}
              onChange={(id) => {
                const pt = id === TOP ? null : (findNode(tree, id)?.type ?? null);
                const ok = typesUnder(pt);
                if (!ok.includes(form.getFieldValue('type'))) form.setFieldValue('type', ok[0]);
              }}
              data-testid="menu-form-parent"
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="type"
            label={t('menu.form.type')}
            rules={[{ validator: (_, v: MenuType) => (allowed.has(v) ? Promise.resolve() : Promise.reject(new Error(t('menu.form.typeNotAllowed')))) }]}
            dependencies={['parent_id']}
          >
            <Radio.Group optionType="button" buttonStyle="solid" disabled={builtin} data-testid="menu-form-type">
              {([1, 2, 3] as MenuType[]).map((x) => (
                <Radio.Button key={x} value={x} disabled={!allowed.has(x)} data-testid={`menu-form-type-${menuTypeKey(x)}`}>
                  <span className="jur-type-option">
                    {TYPE_ICON[x]}
                    {t(`type.${menuTypeKey(x)}`)}
                  </span>
                </Radio.Button>
              ))}
            </Radio.Group>
          </Form.Item>
        </Col>
      </Row>

      <Divider titlePlacement="start" plain className="jur-divider">
        {t('menu.form.titles')}
      </Divider>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name={['title', 'zh']} label={t('menu.form.titleZh')} rules={fieldRules(menuFields.title.shape.zh, lang, t('menu.form.titleZh'))}>
            <Input lang="zh" maxLength={limitsOf(menuFields.title.shape.zh).maxLength} data-testid="menu-form-title-zh" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name={['title', 'en']} label={t('menu.form.titleEn')} rules={fieldRules(menuFields.title.shape.en, lang, t('menu.form.titleEn'))}>
            <Input lang="en" maxLength={limitsOf(menuFields.title.shape.en).maxLength} data-testid="menu-form-title-en" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name={['title', 'es']} label={t('menu.form.titleEs')} rules={fieldRules(menuFields.title.shape.es, lang, t('menu.form.titleEs'))}>
            <Input lang="es" maxLength={limitsOf(menuFields.title.shape.es).maxLength} placeholder={t('menu.form.fallbackEn')} data-testid="menu-form-title-es" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name={['title', 'ja']} label={t('menu.form.titleJa')} rules={fieldRules(menuFields.title.shape.ja, lang, t('menu.form.titleJa'))}>
            <Input lang="ja" maxLength={limitsOf(menuFields.title.shape.ja).maxLength} placeholder={t('menu.form.fallbackEn')} data-testid="menu-form-title-ja" />
          </Form.Item>
        </Col>
      </Row>

      <Divider titlePlacement="start" plain className="jur-divider">
        {t('menu.form.settings')}
      </Divider>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item
            name="sign"
            label={t('menu.form.sign')}
            extra={builtin ? undefined : t(currentType === 3 ? 'menu.form.signHelpButton' : 'menu.form.signHelpPage')}
            rules={[required(t('menu.form.sign')), { pattern: MENU_SIGN_RE, message: t('menu.form.signInvalid') }]}
          >
            <Input className="mono" disabled={builtin} maxLength={64} autoComplete="off" spellCheck={false} data-testid="menu-form-sign" />
          </Form.Item>
        </Col>
        {currentType !== 3 ? (
          <Col xs={24} sm={12}>
            <Form.Item name="icon" label={t('menu.form.icon')}>
              <IconPicker />
            </Form.Item>
          </Col>
        ) : null}
        <Col xs={12} sm={12}>
          <Form.Item name="sort" label={t('menu.form.sort')} extra={t('menu.form.sortHelp')} rules={[{ required: true, message: t('common:form.required', { field: t('menu.form.sort') }) }]}>
            <InputNumber precision={0} min={limitsOf(menuFields.sort).min} max={limitsOf(menuFields.sort).max} style={{ width: '100%' }} data-testid="menu-form-sort" />
          </Form.Item>
        </Col>
        <Col xs={12} sm={12}>
          <Form.Item
            name="hidden"
            label={t('menu.form.hidden')}
            valuePropName="checked"
            getValueProps={(v: 0 | 1) => ({ checked: v === 1 })}
            normalize={(v: boolean) => (v ? 1 : 0)}
            extra={sign === LOCKOUT_SIGN ? t('menu.form.lockoutHelp') : t(currentType === 3 ? 'menu.form.hiddenHelpButton' : 'menu.form.hiddenHelpPage')}
          >
            <Switch disabled={sign === LOCKOUT_SIGN} data-testid="menu-form-hidden" />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
