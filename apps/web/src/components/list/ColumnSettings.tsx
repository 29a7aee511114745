import { useState, type ReactNode } from 'react';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Flex from 'antd/es/flex';
import Popover from 'antd/es/popover';
import Tooltip from 'antd/es/tooltip';
import type { ColumnsType } from 'antd/es/table';
import ArrowDownOutlined from '@ant-design/icons/es/icons/ArrowDownOutlined';
import ArrowUpOutlined from '@ant-design/icons/es/icons/ArrowUpOutlined';
import SettingOutlined from '@ant-design/icons/es/icons/SettingOutlined';
import { useTranslation } from 'react-i18next';
import type { ColumnSetting } from '@app/contract/api/preferences';
import { columnRows, type ListName, useListPreferenceWrites, useListPreferences } from './shape';
import './shape-locales';

/**
 * A list's column settings (like ProTable's): show or hide each column and move it up or down. Each change is
 * saved to the person's account at once, so the list looks the same in another browser.
 */
export function ColumnSettings<Row>({ list, columns }: { list: ListName; columns: ColumnsType<Row> }) {
  const { t } = useTranslation('shape');
  const prefs = useListPreferences(list);
  const writes = useListPreferenceWrites(list);
  const [open, setOpen] = useState(false);
  const rows = columnRows(list, columns, prefs.data?.columns);
  const visibleCount = rows.filter((r) => r.visible).length;

  const save = (next: ColumnSetting[]) => void writes.saveColumns(next).catch(() => prefs.refetch());
  const asSettings = (list: typeof rows): ColumnSetting[] => list.map((r) => ({ key: r.key, visible: r.visible }));
  const toggle = (key: string, visible: boolean) => save(asSettings(rows.map((r) => (r.key === key ? Object.assign({}, r, { visible }) : r))));
  const move = (index: number, by: -1 | 1) => {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    next.splice(index + by, 0, row!);
    save(asSettings(next));
  };
  const nameOf = (title: ReactNode, key: string) => (typeof title === 'string' ? title : key);

  const panel = (
    <Flex vertical gap={4} style={{ minWidth: 240 }} data-testid="column-settings-panel">
      {rows.map((r, i) => (
        <Flex key={r.key} align="center" justify="space-between" gap={8}>
          <Checkbox
            checked={r.visible}
            disabled={r.visible && visibleCount === 1}
            title={r.visible && visibleCount === 1 ? t('columns.lastVisible') : undefined}
            onChange={(e) => toggle(r.key, e.target.checked)}
            data-testid={`column-toggle-${r.key}`}
          >
            {r.title}
          </Checkbox>
          <Flex gap={2}>
            <Button
              size="small"
              type="text"
              icon={<ArrowUpOutlined />}
              disabled={i === 0}
              aria-label={t('columns.up', { name: nameOf(r.title, r.key) })}
              onClick={() => move(i, -1)}
              data-testid={`column-up-${r.key}`}
            />
            <Button
              size="small"
              type="text"
              icon={<ArrowDownOutlined />}
              disabled={i === rows.length - 1}
              aria-label={t('columns.down', { name: nameOf(r.title, r.key) })}
              onClick={() => move(i, 1)}
              data-testid={`column-down-${r.key}`}
            />
          </Flex>
        </Flex>
      ))}
    </Flex>
  );

  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomRight"
      title={
        <Flex justify="space-between" align="center" gap={16}>
          <span>{t('columns.title')}</span>
          <Button size="small" type="link" disabled={!prefs.data?.columns} onClick={() => void writes.saveColumns(null)} data-testid="column-reset">
            {t('columns.reset')}
          </Button>
        </Flex>
      }
      content={panel}
    >
      <Tooltip title={t('columns.button')}>
        <Button aria-label={t('columns.button')} icon={<SettingOutlined />} data-testid="column-settings" />
      </Tooltip>
    </Popover>
  );
}
