import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import type { Database } from '../db/client';
import { createTestApp, openTestDatabase, type TestApp } from '../test/harness';
import { API_HEADERS, DOCS_POLICY, DOCUMENT_HEADERS, helmetHeaders } from './security';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
});
afterAll(async () => {
  await t?.close();
});

/** The directives of a Content-Security-Policy header, by name. */
function csp(header: unknown): Map<string, string[]> {
  expect(typeof header, 'content-security-policy header').toBe('string');
  return new Map(
    (header as string)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

const expectCommonHeaders = (headers: Record<string, unknown>) => {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['cross-origin-resource-policy']).toBe('same-origin');
  expect(csp(headers['content-security-policy']).get('frame-ancestors')).toEqual(["'none'"]);
};
/** What only a rendered document needs: on pages and the app's files, not on API answers. */
const DOCUMENT_ONLY = [
  'referrer-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
const expectDocumentHeaders = (headers: Record<string, unknown>) => {
  expectCommonHeaders(headers);
  expect(headers['referrer-policy']).toBe('same-origin');
  for (const name of DOCUMENT_ONLY) expect(headers[name], name).toBe(DOCUMENT_HEADERS[name]);
};

describe('headers of API answers', () => {
  it("a JSON answer: no framing, no sniffing, no other site's loads, a CSP that allows nothing, never stored; no document-only header", async () => {
    expect(Object.keys(API_HEADERS).sort()).toEqual(['cache-control', 'content-security-policy', 'cross-origin-resource-policy', 'x-content-type-options', 'x-frame-options']);
    for (const res of [
      await t.app.inject({ method: 'GET', url: `/adminapi/login/info?key=${admin}` }),
      await t.app.inject({ method: 'POST', url: '/adminapi/login/login', payload: { username: 'admin', password: 'wrong' } }),
      await t.app.inject({ method: 'GET', url: '/adminapi/no/such/call' }),
      await t.app.inject({ method: 'POST', url: '/adminapi/login/login', payload: '{bad json', headers: { 'content-type': 'application/json' } }),
    ]) {
      expectCommonHeaders(res.headers);
      expect(csp(res.headers['content-security-policy']).get('default-src')).toEqual(["'none'"]);
      expect(res.headers['cache-control']).toBe('no-store');
      for (const name of DOCUMENT_ONLY) expect(res.headers[name], name).toBeUndefined();
    }
  });

  it('the API reference page may load its own files and the document, nothing else', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/adminapi/docs' });
    expect(page.statusCode).toBe(200);
    expectDocumentHeaders(page.headers);
    const policy = csp(page.headers['content-security-policy']);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(page.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/);
  });
});

describe('headers of the web app', () => {
  let app: FastifyInstance;
  let database: Database;
  let webDist: string;
  // The build's one inline script (the early calls, apps/web/src/lib/early-start.ts), allowed by its hash.
  const inline = '(function(w){w.__early={calls:{}}})(window)';
  const inlineHash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`;
  const shell = (nonce: string) =>
    `<!doctype html><html><head><meta charset="UTF-8" /><script nonce="${nonce}">${inline}</script><meta property="csp-nonce" nonce="${nonce}" /><script type="module" crossorigin src="/assets/index.js" nonce="${nonce}"></script><link rel="stylesheet" crossorigin href="/assets/index.css" nonce="${nonce}"></head><body><div id="root"></div></body></html>`;
  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'index.html'), shell('__CSP_NONCE__'));
    fs.writeFileSync(path.join(webDist, 'assets', 'index.js'), 'console.log(1)');
    database = await openTestDatabase({ seed: false });
    app = await buildApp({ ...loadConfig({}), logLevel: 'silent', webDist }, database.db);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it("each page gets a fresh nonce, in its CSP and on its tags; no inline script is allowed but the build's own, by its hash", async () => {
    const nonces = new Set<string>();
    for (const url of ['/', '/login', '/system/admin?tab=1', '/index.html']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expectDocumentHeaders(res.headers);
      const policy = csp(res.headers['content-security-policy']);
      expect(policy.get('script-src')).toEqual(["'self'", inlineHash]);
      expect(policy.get('object-src')).toEqual(["'none'"]);
      const style = policy.get('style-src') ?? [];
      expect(style).toContain("'self'");
      expect(style).not.toContain("'unsafe-inline'");
      const nonce = style.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(res.body).toBe(shell(nonce!));
      expect(res.body).not.toContain('__CSP_NONCE__');
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(4);
  });

  it("the app's files carry the same headers, and API calls are not answered by the app shell", async () => {
    const js = await app.inject({ method: 'GET', url: '/assets/index.js' });
    expect(js.statusCode).toBe(200);
    expectDocumentHeaders(js.headers);
    const missing = await app.inject({ method: 'GET', url: '/adminapi/not-a-call' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.json().code).toBe(404);
  });
});

describe('helmetHeaders', () => {
  it('is what helmet itself sets on a real response, for default and custom options', () => {
    const options: HelmetOptions[] = [{}, { frameguard: { action: 'deny' }, strictTransportSecurity: false, xPoweredBy: false }, { contentSecurityPolicy: false, crossOriginEmbedderPolicy: true }];
    for (const opts of options) {
      const res = new ServerResponse(new IncomingMessage(new Socket()));
      res.setHeader('x-powered-by', 'something');
      let called = 0;
      helmet(opts)(res.req, res, () => called++);
      expect(called).toBe(1);
      const real = Object.fromEntries(Object.entries(res.getHeaders()).map(([k, v]) => [k, String(v)]));
      const { 'x-powered-by': _removed, ...expected } = real;
      expect(helmetHeaders(opts)).toEqual(expected);
      expect(Object.keys(expected).length).toBeGreaterThan(5);
    }
  });

  it("API answers say no-store unless the endpoint sets its own cache-control and CSP (the reference page's)", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/adminapi/params/public' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-frame-options']).toBe('DENY');
    const docs = await t.app.inject({ method: 'GET', url: '/adminapi/docs' });
    expect(docs.headers['cache-control']).toBe('no-cache');
    expect(docs.headers['content-security-policy']).toBe(DOCS_POLICY);
    expect(docs.headers['x-frame-options']).toBe('DENY');
  });
});
