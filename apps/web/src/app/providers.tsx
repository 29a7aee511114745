import { useEffect, useLayoutEffect, useMemo, type ReactNode } from 'react';
import ConfigProvider from 'antd/es/config-provider';
import type { Locale } from 'antd/es/locale';
import zhCN from 'antd/es/locale/zh_CN';
import enUS from 'antd/es/locale/en_US';
import esES from 'antd/es/locale/es_ES';
import jaJP from 'antd/es/locale/ja_JP';
import { I18nextProvider } from 'react-i18next';
import type { Lang } from '@app/contract/i18n';
import { APPEARANCE_COOKIE, LANG_COOKIE, type UiSize } from '@app/contract/constants';
import { useIsDark, useSettings } from '../lib/settings';
import { applyCssTokens, themeConfig } from '../lib/theme';
import { i18n } from '../lib/i18n';
import { cspNonce } from '../lib/csp';
import { usePrefersReducedMotion } from '../lib/media';

/** antd's <style> elements carry the page's nonce, so the server's style-src needs no 'unsafe-inline'. */
const CSP = cspNonce ? { nonce: cspNonce } : undefined;
const ANTD_LOCALES: Record<Lang, Locale> = { zh: zhCN, en: enUS, es: esES, ja: jaJP };
const NO_WAVE = { disabled: true };
/** Spec sizes -> antd: default = large, medium = medium (antd 6's name for middle), small, mini = small + compact. */
const COMPONENT_SIZE: Record<UiSize, 'large' | 'medium' | 'small'> = { default: 'large', medium: 'medium', small: 'small', mini: 'small' };

/**
 * Theme colour, size, appearance, motion and locale through ConfigProvider, at once and from the first
 * render (ui.md); the system's reduced-motion preference turns antd's animations off, followed live.
 * antd's App (messages/modals) and the query cache are added by the shell (shell/AppFrame.tsx), so the
 * login page does not download them.
 */
export function Providers({ children }: { children: ReactNode }) {
  const colour = useSettings((s) => s.theme);
  const size = useSettings((s) => s.size);
  const lang = useSettings((s) => s.lang);
  const appearance = useSettings((s) => s.appearance);
  const dark = useIsDark();
  const still = usePrefersReducedMotion();
  const config = useMemo(() => themeConfig(colour, size, dark, !still), [colour, size, dark, still]);
  // Plain CSS (shell, tags view, login page) reads the theme's colours from variables.
  useLayoutEffect(() => applyCssTokens(config, dark), [config, dark]);
  // The server paints the page before any script runs in this language and appearance (apps/server/src/http/web.ts).
  useEffect(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: a plain preference the server reads with the page request; nothing secret
    document.cookie = `${LANG_COOKIE}=${lang}; path=/; max-age=31536000; SameSite=Lax`;
  }, [lang]);
  useEffect(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: as above
    document.cookie = `${APPEARANCE_COOKIE}=${appearance}; path=/; max-age=31536000; SameSite=Lax`;
  }, [appearance]);
  return (
    <I18nextProvider i18n={i18n}>
      {/* The click wave is drawn outside this tree, where the theme's `motion: false` does not reach it. */}
      <ConfigProvider csp={CSP} locale={ANTD_LOCALES[lang]} componentSize={COMPONENT_SIZE[size]} theme={config} wave={still ? NO_WAVE : undefined}>
        {children}
      </ConfigProvider>
    </I18nextProvider>
  );
}
