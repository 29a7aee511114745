/**
 * Accessible names in the reader's language for parts antd renders with fixed English names:
 * - @ant-design/icons give every icon `role="img" aria-label="<icon name>"` ("user", "search", "lock").
 *   An icon here is decoration: it is hidden from assistive technology, and a control left with no
 *   name by that (an icon-only button antd draws itself, e.g. the search button of Input.Search) is
 *   named from `a11y.icons` in the current language. Icon-only buttons of our own carry aria-label.
 * - a few names are hard-coded in English (rc-input-number's "Increase Value" / "Decrease Value", the
 *   table's "Select all", rc-segmented's "segmented control"): replaced from `a11y.*` (FIXED); so are the
 *   table's row checkboxes, "Select row 3" / "Row 3 selected" (NUMBERED: the row's number kept).
 * One MutationObserver over the document does both, for what antd renders later too (popups, modals).
 * React never rewrites these attributes afterwards: the props it set do not change.
 */
import { i18n } from './i18n';

const ICON = '.anticon[role="img"]';
/** English names antd and its rc-components hard-code (no prop or locale reaches them) -> our locale keys. */
const FIXED: Record<string, string> = {
  'Increase Value': 'a11y.increase',
  'Decrease Value': 'a11y.decrease',
  'Select all': 'a11y.selectAll',
  'Custom selection': 'a11y.selectAll',
  'segmented control': 'a11y.options',
};
/** Names with a row number in them (antd's rowSelection checkboxes and radios) -> locale keys taking `n`. */
const NUMBERED: [RegExp, string][] = [
  [/^Select row (\d+)$/, 'a11y.selectRow'],
  [/^Row (\d+) selected$/, 'a11y.rowSelected'],
];
const FIXED_KEY = 'data-fixed-label';
const FIXED_N = 'data-fixed-n';
const STEP = [...Object.keys(FIXED).map((k) => `[aria-label="${k}"]`), '[aria-label^="Select row "]', '[aria-label^="Row "]', `[${FIXED_KEY}]`].join(', ');

/** The locale key (and row number) for an English name antd hard-codes, if it is one. */
function fixedOf(label: string): { key: string; n?: string } | undefined {
  const key = FIXED[label];
  if (key) return { key };
  for (const [pattern, numbered] of NUMBERED) {
    const n = pattern.exec(label)?.[1];
    if (n) return { key: numbered, n };
  }
  return undefined;
}
const CONTROL = 'button, a[href], [role="button"], [role="link"], [role="tab"], [role="menuitem"], [role="option"]';
const SOURCE = 'data-icon-name';

function named(el: Element): boolean {
  if (el.getAttribute('aria-label')?.trim() || el.getAttribute('aria-labelledby') || el.getAttribute('title')?.trim()) return true;
  // Text other than the hidden icons' own.
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.textContent?.trim() && !n.parentElement?.closest('[aria-hidden="true"]')) return true;
  }
  return !!el.querySelector('img[alt]:not([alt=""])');
}

function labelIcon(icon: Element) {
  const name = icon.getAttribute(SOURCE) ?? icon.getAttribute('aria-label') ?? '';
  icon.setAttribute(SOURCE, name);
  icon.removeAttribute('aria-label');
  icon.setAttribute('aria-hidden', 'true');
  const control = icon.closest(CONTROL);
  if (control && (control.hasAttribute('data-icon-label') || !named(control))) {
    control.setAttribute('data-icon-label', '');
    control.setAttribute('aria-label', i18n.t(`a11y.icons.${name}`, { defaultValue: i18n.t('a11y.icons.action') }));
  }
}

function labelStep(el: Element) {
  const fixed = el.hasAttribute(FIXED_KEY) ? { key: el.getAttribute(FIXED_KEY)!, n: el.getAttribute(FIXED_N) ?? undefined } : fixedOf(el.getAttribute('aria-label') ?? '');
  if (!fixed) return;
  el.setAttribute(FIXED_KEY, fixed.key);
  if (fixed.n) el.setAttribute(FIXED_N, fixed.n);
  const name = fixed.n ? i18n.t(fixed.key, { n: Number(fixed.n) }) : i18n.t(fixed.key);
  // Only a change: the observer hears every write, and in English the name may be the same words.
  if (el.getAttribute('aria-label') !== name) el.setAttribute('aria-label', name);
}

/** antd's table measure row is aria-hidden but holds copies of the header's controls: inert takes them out of the tab order. */
const MEASURE_ROW = 'tr.ant-table-measure-row';

function visit(root: ParentNode) {
  for (const el of root.querySelectorAll(MEASURE_ROW)) el.setAttribute('inert', '');
  if (root instanceof Element) {
    if (root.matches(MEASURE_ROW)) root.setAttribute('inert', '');
    if (root.matches(ICON)) labelIcon(root);
    if (root.matches(STEP)) labelStep(root);
  }
  for (const el of root.querySelectorAll(ICON)) labelIcon(el);
  for (const el of root.querySelectorAll(STEP)) labelStep(el);
}

/** Starts the observer (once); names what is on the page now and whatever is added later, and again on a language change. */
export function installAccessibleNames() {
  if (typeof MutationObserver === 'undefined' || typeof document === 'undefined') return;
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') {
        // antd switched an icon in place (its aria-label prop changed): hide and name it again.
        if (r.target instanceof Element && r.target.matches(ICON) && r.target.getAttribute('aria-label')) {
          r.target.removeAttribute(SOURCE);
          labelIcon(r.target);
        } else if (r.target instanceof Element && fixedOf(r.target.getAttribute('aria-label') ?? '')) {
          // antd set its English name again (a row checked or unchecked: "Select row 3" <-> "Row 3 selected").
          r.target.removeAttribute(FIXED_KEY);
          r.target.removeAttribute(FIXED_N);
          labelStep(r.target);
        }
        continue;
      }
      for (const n of r.addedNodes) if (n instanceof Element) visit(n);
    }
  });
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-label'] });
  visit(document.body);
  i18n.on('languageChanged', () => {
    for (const el of document.querySelectorAll('[data-icon-label]')) el.removeAttribute('aria-label');
    for (const el of document.querySelectorAll(`[${SOURCE}]`)) labelIcon(el);
    for (const el of document.querySelectorAll(STEP)) labelStep(el);
  });
}
