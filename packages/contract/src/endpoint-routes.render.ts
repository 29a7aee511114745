import { ENDPOINTS } from './endpoints';

/** The text of endpoint-routes.ts for the current endpoint table. */
export function renderEndpointRoutes(): string {
  const lines = ENDPOINTS.map((e) => `  '${e.name}': ['${e.method}', '${e.path}'${e.body === 'multipart' ? ", 'multipart'" : ''}],`);
  return `// Generated from the endpoint table (endpoints.ts) by \`npm run gen:endpoints\`: do not edit.
// The web client's view of the table: method and path by endpoint name, without the schemas.
import type { EndpointName } from './endpoints';

export const ENDPOINT_ROUTES = {
${lines.join('\n')}
} as const satisfies Record<EndpointName, readonly [string, string, ...string[]]>;
`;
}
