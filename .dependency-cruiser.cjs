/**
 * Boundary rules (run by `npm run lint`, part of `npm test`). Layers, lowest first:
 *   contract:  packages/contract         (shared by both sides; imports no app)
 *   server:    db < lib < http < modules < app.ts / main.ts / cli / seed / bench / test
 *   web:       lib < components < features < shell < app
 * A layer never imports a higher one; web features never import each other; server modules reach each
 * other only through a module's public `index.ts`.
 */
const S = '^apps/server/src/';
const W = '^apps/web/src/';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Import cycles make load order matter.', from: {}, to: { circular: true, viaOnly: { pathNot: '\\.test\\.tsx?$' } } },
    { name: 'contract-is-shared', severity: 'error', comment: 'The contract imports no app.', from: { path: '^packages/contract/' }, to: { path: '^apps/' } },
    { name: 'web-not-server', severity: 'error', comment: 'The web app talks to the server through the contract only.', from: { path: '^apps/web/' }, to: { path: '^apps/server/' } },
    { name: 'server-not-web', severity: 'error', from: { path: '^apps/server/' }, to: { path: '^apps/web/' } },

    {
      name: 'server-db-is-lowest',
      severity: 'error',
      comment: 'db/ (schema, client, migrations) imports no upper layer.',
      from: { path: `${S}db/` },
      to: { path: `${S}(lib|http|modules|seed|cli)/|${S}(app|main)\\.ts$` },
    },
    {
      name: 'server-lib-below-http',
      severity: 'error',
      comment: 'lib/ helpers import neither http/ nor modules/.',
      from: { path: `${S}lib/` },
      to: { path: `${S}(http|modules|seed|cli)/|${S}(app|main)\\.ts$` },
    },
    {
      name: 'server-http-below-modules',
      severity: 'error',
      comment: 'http/ (plugins, registrar) imports no module.',
      from: { path: `${S}http/`, pathNot: '\\.test\\.ts$' },
      to: { path: `${S}(modules|seed|cli)/|${S}(app|main)\\.ts$` },
    },
    { name: 'server-modules-below-app', severity: 'error', from: { path: `${S}modules/` }, to: { path: `${S}(seed|cli)/|${S}(app|main)\\.ts$` } },
    {
      name: 'server-module-public-index',
      severity: 'error',
      comment: "A server module reaches another only through that module's index.ts.",
      from: { path: `${S}modules/([^/]+)/` },
      to: { path: `${S}modules/([^/]+)/.+`, pathNot: [`${S}modules/$1/`, `${S}modules/[^/]+/index\\.ts$`] },
    },

    {
      name: 'web-lib-is-lowest',
      severity: 'error',
      comment: 'lib/ imports no component, feature, shell or app code.',
      from: { path: `${W}lib/` },
      to: { path: `${W}(components|features|shell|app)/` },
    },
    { name: 'web-components-below-features', severity: 'error', from: { path: `${W}components/` }, to: { path: `${W}(features|shell|app)/` } },
    { name: 'web-features-below-shell', severity: 'error', comment: 'Features never import the shell or the app.', from: { path: `${W}features/` }, to: { path: `${W}(shell|app)/` } },
    { name: 'web-shell-below-app', severity: 'error', comment: 'The shell never imports the app (the app hands it what it needs).', from: { path: `${W}shell/` }, to: { path: `${W}app/` } },
    {
      name: 'web-features-isolated',
      severity: 'error',
      comment: 'Features never import each other: shared code lives in components/ or lib/.',
      from: { path: `${W}features/([^/]+)/` },
      to: { path: `${W}features/([^/]+)/`, pathNot: `${W}features/$1/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
