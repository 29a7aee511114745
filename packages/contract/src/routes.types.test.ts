/**
 * Page names and button keys are types derived from the route table: a misspelt key does not compile
 * (`npm run typecheck` fails on an unused @ts-expect-error, so these lines prove the refusal).
 */
import { describe, expect, it } from 'vitest';
import type { EndpointName } from './endpoints';
import { type ButtonKey, flattenRoutes, type PageName } from './routes';

describe('typed route names, button keys and endpoint names', () => {
  it("accepts the table's names and refuses misspellings at compile time", () => {
    const button: ButtonKey = 'acupoint:delete';
    const page: PageName = 'AcupointManage';
    const endpoint: EndpointName = 'acupoints.remove';
    // @ts-expect-error a misspelt button key
    const badButton: ButtonKey = 'acupoint:delte';
    // @ts-expect-error a page that does not exist
    const badPage: PageName = 'AcupointManager';
    // @ts-expect-error an endpoint that does not exist
    const badEndpoint: EndpointName = 'acupoints.delete';
    const keys = flattenRoutes().flatMap((r) => (r.buttons ?? []).map((b) => b.key));
    expect(keys).toContain(button);
    expect(keys).not.toContain(badButton);
    expect(flattenRoutes().map((r) => r.name)).toContain(page);
    expect(flattenRoutes().map((r) => r.name)).not.toContain(badPage);
    expect([endpoint, badEndpoint]).toHaveLength(2);
  });
});
