// Generated from the endpoint table (endpoints.ts) by `npm run gen:endpoints`: do not edit.
// The web client's view of the table: method and path by endpoint name, without the schemas.
import type { EndpointName } from './endpoints';

export const ENDPOINT_ROUTES = {
  'packages.list': ['GET', '/package/list'],
  'packages.detail': ['GET', '/package/detail'],
  'packages.add': ['POST', '/package/add'],
  'packages.edit': ['POST', '/package/edit'],
  'packages.setStatus': ['POST', '/package/set_status'],
  'packages.remove': ['POST', '/package/del'],
  'audit.list': ['GET', '/audit/list'],
  'audit.detail': ['GET', '/audit/detail'],
  'audit.recordTypes': ['GET', '/audit/record_types'],
  'docs.openapi': ['GET', '/openapi.json'],
  'docs.reference': ['GET', '/docs'],
  'docs.asset': ['GET', '/docs/:file'],
} as const satisfies Record<EndpointName, readonly [string, string, ...string[]]>;
