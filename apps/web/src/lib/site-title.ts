import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from './api';

/*
 * The site title (system parameter `site_title`, read from the public GET /params/public, so the login page
 * has it too). Empty, the default, means the product's own name in the reader's language
 * (`common:app.title`). Asked once per page load; the parameters page refreshes it after a save.
 */

let custom = '';
let asked = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Reads the title again (after the parameters were saved). */
export function refreshSiteTitle(): void {
  asked = true;
  call('params.publicValues', {}, { silent: true })
    .then((p) => {
      custom = p.site_title.trim();
      for (const l of listeners) l();
    })
    .catch(() => {
      // Unreachable server: the product's name stays; the next page load asks again.
      asked = false;
    });
}

/** The title to show: the parameter when set, else the product's name in the reader's language. */
export function useSiteTitle(): string {
  const { t } = useTranslation();
  const value = useSyncExternalStore(subscribe, () => custom);
  useEffect(() => {
    if (!asked) refreshSiteTitle();
  }, []);
  return value || t('common:app.title');
}
