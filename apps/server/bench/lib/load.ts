/**
 * The bench's one HTTP client and load loop. Each client holds one keep-alive connection (node:http,
 * maxSockets 1), optionally bound to a loopback address of its own (127.0.0.0/8: a "user at another
 * address", so the server's per-address sign-in throttling sees separate users). Answers are read in
 * full and decoded (the client asks for br/gzip as browsers do); an answer's time is to its last byte,
 * before the client decodes it (decompressing and parsing are the client's work, not the server's). The
 * load loop runs closed-loop clients (no think time) for a duration and counts, apart from each other:
 * answers (latency by label), 503s (the server's bounded queue), other errors, and timeouts (no answer
 * within the client's timeout).
 */
import http from 'node:http';
import zlib from 'node:zlib';

export interface Answer {
  /** HTTP status; 0 when there was no answer (timeout or connection error). */
  status: number;
  /** The envelope's code, when the body is one. */
  code?: number;
  body: unknown;
  /** The Retry-After header, when there is one. */
  retryAfter?: string;
  /** From sending the request to the answer's last byte (what a failed call waited, for one without). */
  ms: number;
  timeout?: boolean;
  error?: string;
}

export interface Client {
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
  close(): void;
}

export function httpClient(base: string, opts: { localAddress?: string; timeoutMs?: number } = {}): Client {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: opts.localAddress });
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const request = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve) => {
      const started = performance.now();
      const done = (a: Omit<Answer, 'ms'>, at = performance.now()) => resolve({ ...a, ms: at - started });
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method,
          path,
          agent,
          headers: { 'accept-encoding': 'br, gzip', ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}), ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (err) => done({ status: 0, body: null, error: err.message }));
          res.on('end', () => {
            const lastByte = performance.now();
            let raw = Buffer.concat(chunks);
            const enc = res.headers['content-encoding'];
            if (enc === 'br') raw = zlib.brotliDecompressSync(raw);
            else if (enc === 'gzip') raw = zlib.gunzipSync(raw);
            let parsed: unknown = raw;
            if (String(res.headers['content-type'] ?? '').includes('json')) {
              try {
                parsed = JSON.parse(raw.toString('utf8'));
              } catch {
                parsed = raw.toString('utf8');
              }
            }
            const code = (parsed as { code?: unknown } | null)?.code;
            const retryAfter = res.headers['retry-after'];
            done({ status: res.statusCode ?? 0, code: typeof code === 'number' ? code : undefined, body: parsed, retryAfter }, lastByte);
          });
        },
      );
      req.setTimeout(timeoutMs, () => {
        req.destroy();
        done({ status: 0, body: null, timeout: true });
      });
      req.on('error', (err) => done({ status: 0, body: null, error: err.message }));
      req.end(body);
    });
  return {
    get: (path, headers) => request('GET', path, undefined, headers),
    post: (path, body, headers) => request('POST', path, JSON.stringify(body), headers),
    close: () => agent.destroy(),
  };
}

/** A good answer: HTTP 200 and, for an envelope, code 200. */
export const isOk = (a: Answer) => a.status === 200 && (a.code === undefined || a.code === 200);

/** Latencies by label and the failures, apart from each other. */
export class Recorder {
  readonly latencies = new Map<string, number[]>();
  ok = 0;
  busy = 0;
  timeouts = 0;
  errors = 0;
  readonly errorSamples: string[] = [];

  record(label: string, a: Answer): boolean {
    if (a.timeout) this.timeouts++;
    else if (a.status === 503 || a.code === 503) this.busy++;
    else if (!isOk(a)) {
      this.errors++;
      if (this.errorSamples.length < 5) this.errorSamples.push(`${label}: ${a.error ?? `HTTP ${a.status} ${JSON.stringify(a.body).slice(0, 160)}`}`);
    } else {
      this.ok++;
      const xs = this.latencies.get(label) ?? [];
      if (xs.length === 0) this.latencies.set(label, xs);
      xs.push(a.ms);
      return true;
    }
    return false;
  }

  of(label: string): number[] {
    return this.latencies.get(label) ?? [];
  }

  all(): number[] {
    return [...this.latencies.values()].flat();
  }
}

export interface LoadResult {
  rec: Recorder;
  seconds: number;
  /** Good answers per second. */
  rps: number;
}

/**
 * Closed-loop load: every client runs `step` again and again until `durationMs` is over (a step that has
 * begun finishes). `step` makes its requests and records them.
 */
export async function runLoad<C>(clients: readonly C[], durationMs: number, step: (client: C, rec: Recorder) => Promise<void>): Promise<LoadResult> {
  const rec = new Recorder();
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    clients.map(async (c) => {
      while (performance.now() < end) await step(c, rec);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { rec, seconds, rps: rec.ok / seconds };
}

/** `n` clients, each on a loopback address of its own when `distinct` (127.0.1.1, 127.0.1.2, ...). */
export function clients(base: string, n: number, opts: { distinct?: boolean; timeoutMs?: number } = {}): Client[] {
  return Array.from({ length: n }, (_, i) => httpClient(base, { timeoutMs: opts.timeoutMs, localAddress: opts.distinct ? `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}` : undefined }));
}
