import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Order matters: the page's security policy first (lib/csp.ts), then settings and session are read from
// storage, then i18n starts in the saved language, then every feature registers its pages and strings;
// all before the first render.
import { cspNonce, installCspShims } from './lib/csp';
import './lib/settings';
import './lib/session';
import './lib/i18n';
import './app/locales';
import './app/pages';
import { installErrorLog, logRenderError } from './lib/error-log';
import { installAccessibleNames } from './lib/a11y-names';
import { Providers } from './app/providers';
import { AppRouter } from './app/router';
import { preloadSignedIn } from './lib/pages';
import { getToken } from './lib/storage';
import './styles.css';

installErrorLog();
installAccessibleNames();
installCspShims(cspNonce);
// Signed in already (a reload, a bookmark): shell and page code, and the page's first call, start now, beside the user info.
if (getToken() && !/^\/(login|auth-redirect|404|401|share)\b/.test(window.location.pathname)) preloadSignedIn(window.location.pathname + window.location.search);

createRoot(document.getElementById('root')!, {
  // Errors caught by a page's error boundary go to the error log (production) instead of the console.
  onCaughtError: (error, info) => {
    if (import.meta.env.DEV) console.error(error);
    else logRenderError(error, info.componentStack);
  },
}).render(
  <StrictMode>
    <Providers>
      <AppRouter />
    </Providers>
  </StrictMode>,
);
