import Button from 'antd/es/button';
import ColorPicker from 'antd/es/color-picker';
import Divider from 'antd/es/divider';
import Drawer from 'antd/es/drawer';
import Flex from 'antd/es/flex';
import Segmented from 'antd/es/segmented';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import { THEME_PRESETS } from '@app/contract/constants';
import { APPEARANCES, type Appearance, useSettings, type Settings } from '../lib/settings';
import { useUi } from '../lib/ui';

type BoolSetting = 'tagsView' | 'fixedHeader' | 'sidebarLogo' | 'pinyinSearch';

function Row({ name, label, hint }: { name: BoolSetting; label: string; hint?: string }) {
  const value = useSettings((s) => s[name]);
  const set = useSettings((s) => s.set);
  const id = `setting-${name}`;
  return (
    <Flex justify="space-between" align="center" className="settings-row">
      <label htmlFor={id}>
        <div>{label}</div>
        {hint ? <div className="settings-hint">{hint}</div> : null}
      </label>
      <Switch id={id} checked={value} onChange={(v) => set(name, v as Settings[BoolSetting])} data-testid={id} />
    </Flex>
  );
}

export default function SettingsDrawer() {
  const { t } = useTranslation();
  const open = useUi((s) => s.settingsOpen);
  const setUi = useUi((s) => s.set);
  const theme = useSettings((s) => s.theme);
  const appearance = useSettings((s) => s.appearance);
  const set = useSettings((s) => s.set);
  const reset = useSettings((s) => s.reset);
  return (
    <Drawer
      open={open}
      title={t('settings.title')}
      onClose={() => setUi({ settingsOpen: false })}
      size={300}
      data-testid="settings-drawer"
      footer={
        <Button block onClick={reset} data-testid="settings-reset">
          {t('settings.reset')}
        </Button>
      }
    >
      <div className="settings-row">
        <div id="setting-appearance-label" className="settings-label">
          {t('settings.appearance')}
        </div>
        <Segmented<Appearance>
          block
          aria-labelledby="setting-appearance-label"
          value={appearance}
          options={APPEARANCES.map((a) => ({
            value: a,
            label: <span data-testid={`setting-appearance-${a}`}>{t(`settings.appearances.${a}`)}</span>,
            ...(a === 'system' ? { title: t('settings.appearanceSystemHint') } : {}),
          }))}
          onChange={(v) => set('appearance', v)}
          data-testid="setting-appearance"
        />
        {appearance === 'system' && (
          <p className="settings-hint" data-testid="setting-appearance-hint">
            {t('settings.appearanceSystemHint')}
          </p>
        )}
      </div>
      <Flex justify="space-between" align="center" className="settings-row">
        <span id="setting-theme-label">{t('settings.themeColor')}</span>
        <ColorPicker
          aria-labelledby="setting-theme-label"
          value={theme}
          disabledAlpha
          presets={[{ label: t('settings.themeColor'), colors: [...THEME_PRESETS], defaultOpen: true }]}
          onChangeComplete={(c) => {
            const hex = c?.toHexString?.();
            if (typeof hex === 'string') set('theme', hex);
          }}
          data-testid="setting-theme"
        />
      </Flex>
      <Flex gap={6} wrap style={{ marginBottom: 8 }}>
        {THEME_PRESETS.map((c) => (
          <button
            key={c}
            type="button"
            className={`theme-swatch${c.toLowerCase() === theme.toLowerCase() ? ' is-active' : ''}`}
            style={{ background: c }}
            aria-label={`${t('settings.themeColor')} ${c}`}
            aria-pressed={c.toLowerCase() === theme.toLowerCase()}
            onClick={() => set('theme', c)}
            data-testid={`theme-preset-${c.slice(1)}`}
          />
        ))}
      </Flex>
      <Divider />
      <Row name="tagsView" label={t('settings.tagsView')} />
      <Row name="fixedHeader" label={t('settings.fixedHeader')} />
      <Row name="sidebarLogo" label={t('settings.sidebarLogo')} />
      <Row name="pinyinSearch" label={t('settings.pinyinSearch')} hint={t('settings.pinyinHint')} />
      <p className="settings-hint" style={{ marginTop: 16 }}>
        {t('settings.savedHint')}
      </p>
    </Drawer>
  );
}
