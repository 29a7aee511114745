import { useEffect, useRef, useState } from 'react';
import App from 'antd/es/app';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Popover from 'antd/es/popover';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import DeleteOutlined from '@ant-design/icons/es/icons/DeleteOutlined';
import EditOutlined from '@ant-design/icons/es/icons/EditOutlined';
import FilterOutlined from '@ant-design/icons/es/icons/FilterOutlined';
import StarFilled from '@ant-design/icons/es/icons/StarFilled';
import StarOutlined from '@ant-design/icons/es/icons/StarOutlined';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PREFERENCE_LIMITS, type SavedView } from '@app/contract/api/preferences';
import { FormModal } from '../FormModal';
import type { ListParams } from './useListParams';
import { type ListName, useListPreferenceWrites, useListPreferences } from './shape';
import './shape-locales';

/** Whether the list shows this view now: the same filters and sort. */
function isShown(view: SavedView, params: ListParams) {
  const shown = params.filters as Record<string, string>;
  const keys = Object.keys(shown);
  if (keys.length !== Object.keys(view.filters).length || keys.some((k) => shown[k] !== view.filters[k])) return false;
  return (view.sort ?? undefined) === params.sort && (view.order ?? undefined) === params.order;
}

/**
 * Saved views of a list: named filters with a sort, kept on the server per account. Apply, rename, delete,
 * and one default that opens the list when its address names no filter or sort of its own.
 */
export function SavedViews({ list, params }: { list: ListName; params: ListParams }) {
  const { t } = useTranslation('shape');
  const { modal } = App.useApp();
  const prefs = useListPreferences(list);
  const writes = useListPreferenceWrites(list);
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [renaming, setRenaming] = useState<SavedView | null>(null);
  const views = prefs.data?.views ?? [];
  const shown = views.find((v) => isShown(v, params));
  const { search } = useLocation();

  const apply = (v: SavedView) => {
    params.setView(v.filters as never, v.sort, v.order);
    setOpen(false);
  };

  // The default view opens the list when the address brings no filter, sort or page of its own (once).
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !prefs.data) return;
    opened.current = true;
    const own = new URLSearchParams(search);
    if ([...params.names, 'sort', 'order', 'page'].some((k) => own.has(k))) return;
    const byDefault = prefs.data.views.find((v) => v.is_default);
    if (byDefault) params.setView(byDefault.filters as never, byDefault.sort, byDefault.order);
  }, [prefs.data, search, params]);

  const remove = (v: SavedView) =>
    modal.confirm({
      title: t('views.deleteConfirm', { name: v.name }),
      okText: t('common:confirm.delete'),
      okButtonProps: { danger: true, 'data-testid': 'saved-view-delete-ok' } as never,
      cancelText: t('common:form.cancel'),
      onOk: () => writes.deleteView.mutateAsync({ id: v.id }),
    });

  const panel = (
    <Flex vertical gap={6} style={{ minWidth: 280, maxWidth: 360 }} data-testid="saved-views-panel">
      {views.length ? (
        views.map((v) => (
          <Flex key={v.id} align="center" justify="space-between" gap={8} data-testid="saved-view">
            <Button
              type={shown?.id === v.id ? 'primary' : 'text'}
              ghost={shown?.id === v.id}
              onClick={() => apply(v)}
              aria-label={t('views.apply', { name: v.name })}
              style={{ flex: 1, justifyContent: 'flex-start', overflow: 'hidden' }}
            >
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{v.name}</span>
              {v.is_default ? <Tag style={{ marginInlineStart: 4 }}>{t('views.default')}</Tag> : null}
            </Button>
            <Flex gap={2}>
              <Tooltip title={v.is_default ? t('views.unsetDefault', { name: v.name }) : t('views.makeDefault', { name: v.name })}>
                <Button
                  size="small"
                  type="text"
                  icon={v.is_default ? <StarFilled /> : <StarOutlined />}
                  aria-label={v.is_default ? t('views.unsetDefault', { name: v.name }) : t('views.makeDefault', { name: v.name })}
                  aria-pressed={v.is_default}
                  onClick={() => void writes.editView.mutateAsync({ id: v.id, is_default: !v.is_default })}
                />
              </Tooltip>
              <Tooltip title={t('views.rename', { name: v.name })}>
                <Button size="small" type="text" icon={<EditOutlined />} aria-label={t('views.rename', { name: v.name })} onClick={() => setRenaming(v)} />
              </Tooltip>
              <Tooltip title={t('views.delete', { name: v.name })}>
                <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('views.delete', { name: v.name })} onClick={() => remove(v)} />
              </Tooltip>
            </Flex>
          </Flex>
        ))
      ) : (
        <span className="text-muted" style={{ maxWidth: 300 }}>
          {t('views.none')}
        </span>
      )}
      <Button
        type="dashed"
        onClick={() => {
          setOpen(false);
          setSaving(true);
        }}
        data-testid="saved-view-save"
      >
        {t('views.saveCurrent')}
      </Button>
    </Flex>
  );

  const nameField = (
    <Form.Item name="name" label={t('views.name')} rules={[{ required: true, whitespace: true }, { max: PREFERENCE_LIMITS.viewNameLength }]}>
      <Input maxLength={PREFERENCE_LIMITS.viewNameLength} showCount data-testid="saved-view-name" />
    </Form.Item>
  );

  return (
    <>
      <Popover open={open} onOpenChange={setOpen} trigger="click" placement="bottomRight" title={t('views.title')} content={panel}>
        <Button icon={<FilterOutlined />} data-testid="saved-views">
          {shown ? shown.name : t('views.button')}
        </Button>
      </Popover>
      {/* Mounted only while open: a form kept in the page would repeat its field ids on every kept-alive list. */}
      {saving ? (
        <FormModal<{ name: string; is_default: boolean }>
          open={saving}
          title={t('views.saveTitle')}
          onClose={() => setSaving(false)}
          initialValues={{ name: '', is_default: false }}
          testId="saved-view-dialog"
          onSubmit={(v) =>
            writes.addView.mutateAsync({
              list,
              name: v.name,
              is_default: !!v.is_default,
              filters: params.filters as Record<string, string>,
              sort: params.sort && params.order ? params.sort : null,
              order: params.sort && params.order ? params.order : null,
            })
          }
        >
          {nameField}
          <Form.Item name="is_default" valuePropName="checked">
            <Checkbox data-testid="saved-view-default">{t('views.isDefault')}</Checkbox>
          </Form.Item>
        </FormModal>
      ) : null}
      {renaming ? (
        <FormModal<{ name: string }>
          open={!!renaming}
          title={t('views.renameTitle')}
          onClose={() => setRenaming(null)}
          initialValues={{ name: renaming?.name ?? '' }}
          testId="saved-view-rename"
          onSubmit={(v) => writes.editView.mutateAsync({ id: renaming!.id, name: v.name })}
        >
          {nameField}
        </FormModal>
      ) : null}
    </>
  );
}
