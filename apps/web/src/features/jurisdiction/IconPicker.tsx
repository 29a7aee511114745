import Select from 'antd/es/select';
import Space from 'antd/es/space';
import { useTranslation } from 'react-i18next';
// The shell's curated menu icons: the picker offers exactly what the sidebar can draw.
import { MENU_ICON_NAMES, MenuIcon } from '../../components/MenuIcon';

interface Props {
  value?: string | null;
  onChange?: (value: string | null) => void;
  disabled?: boolean;
  id?: string;
}

/** A select of the sidebar's icons, each drawn next to its name; empty = no icon. */
export function IconPicker({ value, onChange, disabled, id }: Props) {
  const { t } = useTranslation('jurisdiction');
  // A name the shell does not know (set through the API) stays selectable; the sidebar shows a neutral icon for it.
  const names = value && !MENU_ICON_NAMES.includes(value) ? [...MENU_ICON_NAMES, value] : MENU_ICON_NAMES;
  return (
    <Select<string>
      id={id}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      allowClear
      showSearch={{ optionFilterProp: 'value' }}
      disabled={disabled}
      placeholder={t('menu.form.iconPlaceholder')}
      options={names.map((name) => ({
        value: name,
        label: (
          <Space size={8}>
            <MenuIcon name={name} />
            <span>{name}</span>
          </Space>
        ),
      }))}
      data-testid="icon-picker"
    />
  );
}
