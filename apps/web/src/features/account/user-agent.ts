import Bowser from 'bowser';

export interface Device {
  /** "Chrome 156", or '' when the browser is not known. */
  browser: string;
  /** "Linux", "iOS 18.1", or ''. */
  os: string;
  /** The form of the device: desktop, mobile, tablet, or unknown. */
  kind: 'desktop' | 'mobile' | 'tablet' | 'unknown';
}

/** A session's browser and system, read from its User-Agent by bowser (a maintained parser). */
export function deviceOf(userAgent: string): Device {
  if (!userAgent.trim()) return { browser: '', os: '', kind: 'unknown' };
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? `${parsed.browser.name}${major ? ` ${major}` : ''}` : '';
  const os = parsed.os.name ? `${parsed.os.name}${parsed.os.version && parsed.os.name !== 'Linux' ? ` ${parsed.os.version}` : ''}` : '';
  const type = parsed.platform.type;
  const kind = type === 'mobile' || type === 'tablet' || type === 'desktop' ? type : 'unknown';
  return { browser, os, kind };
}
