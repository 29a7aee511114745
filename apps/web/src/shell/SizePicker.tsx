import App from 'antd/es/app';
import ColumnHeightOutlined from '@ant-design/icons/es/icons/ColumnHeightOutlined';
import { useTranslation } from 'react-i18next';
import { UI_SIZES, type UiSize } from '@app/contract/constants';
import { useSettings } from '../lib/settings';
import { DropdownTrigger } from '../components/DropdownTrigger';

/** default / medium / small / mini (spec §2); saved and applied through ConfigProvider. */
export function SizePicker() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const size = useSettings((s) => s.size);
  const set = useSettings((s) => s.set);
  return (
    <DropdownTrigger
      testId="size-picker"
      icon={<ColumnHeightOutlined />}
      label={t('nav.size')}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: UI_SIZES.map((s) => ({ key: s, label: <span data-testid={`size-${s}`}>{t(`nav.sizes.${s}`)}</span> })),
        onClick: ({ key }) => {
          if (key === size) return;
          set('size', key as UiSize);
          void message.success(t('nav.sizeChanged'));
        },
      }}
    />
  );
}
