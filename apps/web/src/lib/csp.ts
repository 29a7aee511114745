import { config as zodConfig } from 'zod';

/*
 * Living under the server's Content-Security-Policy (apps/server/src/http/security.ts): scripts from
 * this origin only, no eval, and no inline style except <style> elements carrying the page's nonce.
 * main.tsx imports this module first, so the settings below hold before any other module runs.
 */

// zod compiles object parsers with `new Function` when it may, and probes whether it may by trying: under
// the policy the probe is refused (and reported as a violation). The plain parsers are as correct.
zodConfig({ jitless: true });

/**
 * The page's nonce. The server sends a fresh one with each page, in its `style-src` and on
 * `<meta property="csp-nonce">` (apps/server/src/http/web.ts). Undefined under the dev server (no CSP).
 */
export function readCspNonce(doc: Document = document): string | undefined {
  const meta = doc.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  // Browsers hide a nonce attribute's value once the page has a CSP; the property keeps it.
  const nonce = meta?.nonce || meta?.getAttribute('nonce') || '';
  return nonce && !nonce.startsWith('__') ? nonce : undefined;
}

export const cspNonce = typeof document === 'undefined' ? undefined : readCspNonce();

/**
 * Styles the app's own scripts set, made acceptable to the policy. antd's CSS-in-JS takes the nonce from
 * ConfigProvider (app/providers.tsx); helpers under antd do not:
 * - @rc-component/util inserts small <style> elements of its own (the scroll lock of dialogs and drawers,
 *   the scrollbar measure): every <style> the page's scripts create gets the nonce;
 * - @rc-component/input sizes auto-growing text areas through `setAttribute('style', ...)`, which the
 *   policy refuses like any style attribute: the same text goes through the CSSOM (`style.cssText`),
 *   which is what React does for every `style` prop.
 * Only scripts from this origin run (script-src 'self'), and markup injected into the page goes through
 * neither call, so an injected <style> element or style attribute is still refused.
 */
export function installCspShims(nonce: string | undefined, doc: Document = document) {
  if (!nonce) return;
  const create = doc.createElement;
  doc.createElement = function createElement(this: Document, tagName: string, options?: ElementCreationOptions) {
    const element = create.call(this, tagName, options);
    if (element instanceof HTMLStyleElement) element.nonce = nonce;
    return element;
  } as Document['createElement'];

  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (this: Element, name: string, value: string) {
    if (name.toLowerCase() === 'style' && (this instanceof HTMLElement || this instanceof SVGElement)) {
      this.style.cssText = String(value);
      return;
    }
    setAttribute.call(this, name, value);
  };
}
