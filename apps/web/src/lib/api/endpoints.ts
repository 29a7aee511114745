/**
 * Calls by endpoint name: `call('packages.list', query)`, typed by the contract's endpoint table
 * (input and answer), routed by its generated method + path table (no zod at run time, no path
 * literal in a feature).
 */
import type { AnswerOf, InputOf } from '@app/contract/endpoint';
import { ENDPOINT_ROUTES } from '@app/contract/endpoint-routes';
import type { EndpointName, EndpointNamed } from '@app/contract/endpoints';
import { request, upload as uploadFile, type Payload, type RequestOptions, type UploadOptions } from './client';

export type { EndpointName };
export type Input<N extends EndpointName> = InputOf<EndpointNamed<N>>;
export type Answer<N extends EndpointName> = AnswerOf<EndpointNamed<N>>;

/** The method and path of an endpoint (`:param` segments filled from the input and left out of it). */
export function routeOf(name: EndpointName, input: Payload = {}): { method: 'GET' | 'POST'; path: string; payload: Payload } {
  const [method, template] = ENDPOINT_ROUTES[name] as readonly [string, string];
  const payload: Payload = { ...input };
  const path = template.replace(/:([a-z_]+)/gi, (_, p: string) => {
    const v = payload[p];
    delete payload[p];
    return encodeURIComponent(String(v ?? ''));
  });
  return { method: method as 'GET' | 'POST', path, payload };
}

/** Calls an endpoint; errors are shown and thrown as the client does for every call. */
export function call<N extends EndpointName>(name: N, input?: Input<N>, opts?: RequestOptions): Promise<Answer<N>> {
  const { method, path, payload } = routeOf(name, (input ?? {}) as Payload);
  return request<Answer<N>>(method, path, payload, opts);
}

/** Sends a file to a multipart endpoint, with progress (0-99 while sending, 100 once accepted). */
export function upload<N extends EndpointName>(name: N, file: Blob, onProgress?: (percent: number) => void, opts?: UploadOptions): Promise<Answer<N>> {
  const { path } = routeOf(name);
  return uploadFile<Answer<N>>(path, file, onProgress, opts);
}
