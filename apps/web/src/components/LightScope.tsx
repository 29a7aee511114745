import type { ReactNode } from 'react';
import ConfigProvider from 'antd/es/config-provider';
import { useSettings } from '../lib/settings';
import { themeConfig } from '../lib/theme';

/** A part that stays light in a dark app (the printable report): antd's light theme and the light CSS variables (.light-scope). */
export function LightScope({ children }: { children: ReactNode }) {
  const colour = useSettings((s) => s.theme);
  const size = useSettings((s) => s.size);
  return (
    <ConfigProvider theme={themeConfig(colour, size, false)}>
      <div className="light-scope">{children}</div>
    </ConfigProvider>
  );
}
