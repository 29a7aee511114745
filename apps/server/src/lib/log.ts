import { REDACTED, SECRET_KEY } from './audit';

/*
 * What reaches a log line. Session keys travel in query strings (spec §7), so a request's URL is logged
 * with the value of every secret-looking parameter replaced, whatever the spelling the server's query
 * parser would accept (`?KEY=`, `?k%65y=`, `?key[]=`). Errors are logged through a whitelist: type,
 * message, code, the SQL text of a failed query but never its parameter values (drizzle's
 * DrizzleQueryError carries them in `params` and in its message), nor a database error's `detail`
 * ("Key (username)=(...) already exists", "Failing row contains (...)"), nor anything else an error
 * object happens to carry (a client error's raw packet holds the request line, key and all).
 */

/**
 * Names that are secrets in a request or a log line but not in the audit trail's records (where `code` is a
 * disease's or a region's code): a second factor's code, a sign-in challenge, recovery codes, the otpauth URL.
 */
const LOG_ONLY_SECRET = /^code$|challenge|recovery_?codes?|otpauth|passcode/i;

/** A query parameter's name as the server reads it: percent-decoded (repeatedly), case and brackets aside. */
function secretName(raw: string): boolean {
  let name = raw.replace(/\+/g, ' ');
  for (let i = 0; i < 3 && name.includes('%'); i++) {
    try {
      name = decodeURIComponent(name);
    } catch {
      // Undecodable: the parser's reading cannot be known, so the value is not logged.
      return true;
    }
  }
  name = name.trim().replace(/[[.].*$/s, '');
  return SECRET_KEY.test(name) || LOG_ONLY_SECRET.test(name);
}

/** `name=value` pairs in a query string with the values of secret-looking names replaced. */
function redactQuery(query: string): string {
  return query
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      return eq >= 0 && secretName(part.slice(0, eq)) ? `${part.slice(0, eq)}=${REDACTED}` : part;
    })
    .join('&');
}

/** A request URL fit for a log line. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : `${url.slice(0, q)}?${redactQuery(url.slice(q + 1))}`;
}

/** Free text (an error message) with query-string and JSON secrets replaced. */
export function scrubText(text: string): string {
  return text
    .replace(/([?&])([^=&\s#"'<>]*)=([^&\s#"'<>]*)/g, (m, sep: string, name: string) => (secretName(name) ? `${sep}${name}=${REDACTED}` : m))
    .replace(/"([^"\\]{1,64})"(\s*:\s*)"(?:[^"\\]|\\.)*"/g, (m, name: string, colon: string) => (secretName(name) ? `"${name}"${colon}"${REDACTED}"` : m));
}

const SQLSTATE = /^[0-9A-Z]{5}$/;
/** Plain fields of an error kept as they are (a database error's identifiers, never its values). */
const KEPT = ['code', 'statusCode', 'severity', 'constraint', 'table', 'column', 'schema', 'routine'] as const;

export interface SerializedError {
  type: string;
  message: string;
  stack: string;
  [field: string]: unknown;
}

/** An error as a log line shows it (pino's `err` serializer). */
export function serializeError(err: unknown, depth = 0): SerializedError {
  if (typeof err !== 'object' || err === null) {
    const message = scrubText(String(err));
    return { type: typeof err, message, stack: message };
  }
  const e = err as Record<string, unknown>;
  const type = (err as { constructor?: { name?: string } }).constructor?.name ?? 'Error';
  let message = typeof e.message === 'string' ? e.message : '';
  // drizzle: "Failed query: <sql>\nparams: <values>": the SQL text only.
  if (message.startsWith('Failed query:') && typeof e.query === 'string') message = `Failed query: ${e.query}`;
  // Data exceptions quote the offending value: `invalid input syntax for type integer: "..."`.
  if (typeof e.code === 'string' && SQLSTATE.test(e.code) && e.code.startsWith('22')) message = message.replace(/"[^"]*"/g, `"${REDACTED}"`);
  const safe = scrubText(message);
  const frames = typeof e.stack === 'string' ? e.stack.split('\n').filter((line) => /^\s+at /.test(line)) : [];
  const out: SerializedError = { type, message: safe, stack: [`${type}: ${safe}`, ...frames].join('\n') };
  for (const k of KEPT) if (typeof e[k] === 'string' || typeof e[k] === 'number') out[k] = e[k];
  if (e.cause !== undefined && depth < 3) out.cause = serializeError(e.cause, depth + 1);
  return out;
}

/** pino `redact` paths: secrets under these names in any object logged, one level down. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  ...['password', 'key', 'value', 'keyHash', 'key_hash', 'passwordHash', 'password_hash', 'secret', 'secretHash', 'secret_hash', 'token'].map((k) => `*.${k}`),
  // The second factor's: a challenge, a code typed (as parsed: `passcode`), recovery codes, the otpauth URL.
  ...['challenge', 'challenge_token', 'passcode', 'recovery_codes', 'otpauth_url', 'pendingSecret', 'pending_secret'].map((k) => `*.${k}`),
];

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogFn = (...args: unknown[]) => void;
interface Parent {
  level: string;
  isLevelEnabled?(level: string): boolean;
  child(bindings: Record<string, unknown>, opts?: Record<string, unknown>): Record<string, unknown> & { level: string };
}

/**
 * Fastify's per-request logger (`request.log`, bound to the request id), made when a line is first written
 * at an enabled level rather than for every request. pino's `child()` stringifies the bindings through the
 * redaction code: about 3 us per request, paid even by a request that writes nothing (most of them at
 * `warn`; at `info` every request writes its two lines and makes the child anyway; docs/benchmarks.md).
 * What it writes is the real child's line, the request id included; a write below the level is dropped as
 * pino drops it.
 */
export class RequestLogger {
  private real?: Record<string, unknown> & { level: string };

  constructor(
    private readonly parent: Parent,
    private readonly own: Record<string, unknown>,
    private readonly opts: Record<string, unknown>,
  ) {}

  private get made() {
    this.real ??= this.parent.child(this.own, this.opts);
    return this.real;
  }

  private write(level: LevelName, args: unknown[]) {
    if (!this.real && this.parent.isLevelEnabled && !this.parent.isLevelEnabled(level)) return;
    const child = this.made;
    (child[level] as LogFn).apply(child, args);
  }

  get level(): string {
    return this.real?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.made.level = level;
  }
  isLevelEnabled(level: string): boolean {
    return this.real ? (this.real as unknown as Parent).isLevelEnabled!(level) : (this.parent.isLevelEnabled?.(level) ?? true);
  }
  fatal(...args: unknown[]) {
    this.write('fatal', args);
  }
  error(...args: unknown[]) {
    this.write('error', args);
  }
  warn(...args: unknown[]) {
    this.write('warn', args);
  }
  info(...args: unknown[]) {
    this.write('info', args);
  }
  debug(...args: unknown[]) {
    this.write('debug', args);
  }
  trace(...args: unknown[]) {
    this.write('trace', args);
  }
  silent() {}
  child(bindings: Record<string, unknown>, opts?: Record<string, unknown>) {
    return (this.made as unknown as Parent).child(bindings, opts);
  }
  bindings() {
    return (this.made as unknown as { bindings(): Record<string, unknown> }).bindings();
  }
}

/**
 * Fastify's `childLoggerFactory`: a lazy request logger, unless the route sets a level or serializers of its
 * own (then pino's child at once, as Fastify makes it).
 */
export function lazyChildLogger(logger: Parent, bindings: Record<string, unknown>, opts: Record<string, unknown>) {
  return opts.level !== undefined || opts.serializers !== undefined ? logger.child(bindings, opts) : new RequestLogger(logger, bindings, opts);
}
