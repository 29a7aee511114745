import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { codeKeyBytes } from '../../config';

/*
 * The server's code key: 32 bytes, never in the database. From CODE_KEY (64 hex digits, or base64 of 32
 * bytes) when set, else from DATA_DIR/code.key, created once (mode 0600) on first use. Two keys are
 * derived from it (HKDF-SHA256): one seals codes (AES-256-GCM), one makes their lookup value
 * (HMAC-SHA256 of the normalised code). A database dump alone therefore reveals no code; with the key,
 * the platform can export a batch again (the operator who lost the file).
 *
 * Losing the key loses every unused code (they can be neither looked up nor exported): back it up apart
 * from the database, or set CODE_KEY from the deployment's secret store.
 */

export const KEY_FILE = 'code.key';

export interface CodeKeys {
  /** HMAC-SHA256 of a normalised code, hex: the unique lookup column. */
  lookup(code: string): string;
  /** AES-256-GCM under a fresh 96-bit IV: `v1.<iv>.<tag>.<ciphertext>`, base64url. */
  seal(code: string): string;
  /** The code of a sealed value; null when it was sealed under another key (or altered). */
  open(sealed: string): string | null;
}

function parseEnvKey(value: string): Buffer {
  const key = codeKeyBytes(value);
  if (key.length !== 32) throw new Error('CODE_KEY must be 32 bytes: 64 hex digits or base64 (e.g. `openssl rand -hex 32`)');
  return key;
}

/** DATA_DIR/code.key: read, or created atomically (a temporary file linked into place, so two processes agree). */
function fileKey(dataDir: string): Buffer {
  const file = path.join(dataDir, KEY_FILE);
  const read = () => {
    const key = fs.readFileSync(file);
    if (key.length !== 32) throw new Error(`${file} must hold exactly 32 bytes (the activation code key)`);
    return key;
  };
  if (fs.existsSync(file)) return read();
  fs.mkdirSync(dataDir, { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(tmp, randomBytes(32), { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(tmp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return read();
}

/** AES-256-GCM sealing of short texts under one purpose's key. */
export interface Sealer {
  /** `v1.<iv>.<tag>.<ciphertext>`, base64url, under a fresh 96-bit IV. */
  seal(text: string): string;
  /** The text of a sealed value; null when it was sealed under another key or purpose (or altered). */
  open(sealed: string): string | null;
}

const deriveKey = (master: Buffer, info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));

/** A sealer keyed from the master key for one purpose (`<purpose> seal v1`, the purpose as AAD). */
export function sealerFrom(master: Buffer, purpose: string): Sealer {
  const sealKey = deriveKey(master, `${purpose} seal v1`);
  const aad = Buffer.from(purpose);
  return {
    seal(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
      cipher.setAAD(aad);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || !body) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', sealKey, Buffer.from(iv, 'base64url'));
        decipher.setAAD(aad);
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

/** Sealing and lookup keyed from a 32-byte master key. */
export function codeKeysFrom(master: Buffer): CodeKeys {
  const lookupKey = deriveKey(master, 'activation-code lookup v1');
  const sealer = sealerFrom(master, 'activation-code');
  return {
    lookup: (code) => createHmac('sha256', lookupKey).update(code).digest('hex'),
    seal: sealer.seal,
    open: sealer.open,
  };
}

const masters = new Map<string, Buffer>();
const cache = new Map<string, CodeKeys>();

/**
 * The master key of a server: its configuration's CODE_KEY when set (config.ts, checked at start), else
 * DATA_DIR/code.key (created when missing); read once per source.
 */
function masterKey(opts: { dataDir: string; codeKey?: string }): { source: string; key: Buffer } {
  const envKey = opts.codeKey;
  const source = envKey ? `env:${envKey}` : `file:${path.resolve(opts.dataDir)}`;
  let key = masters.get(source);
  if (!key) {
    key = envKey ? parseEnvKey(envKey) : fileKey(opts.dataDir);
    masters.set(source, key);
  }
  return { source, key };
}

/**
 * The code keys of a server: its configuration's CODE_KEY when set (config.ts, checked at start), else
 * DATA_DIR/code.key (created when missing). Cached per source, so the file is read once per process.
 */
export function codeKeys(opts: { dataDir: string; codeKey?: string }): CodeKeys {
  const { source, key } = masterKey(opts);
  let keys = cache.get(source);
  if (!keys) {
    keys = codeKeysFrom(key);
    cache.set(source, keys);
  }
  return keys;
}

const sealers = new Map<string, Sealer>();

/**
 * A sealer for another purpose under the same server key (the second factor's secrets: `totp-secret`):
 * one key to keep and back up, a separate derived key and AAD per purpose, so a value sealed for one
 * purpose never opens as another.
 */
export function serverSealer(opts: { dataDir: string; codeKey?: string }, purpose: string): Sealer {
  const { source, key } = masterKey(opts);
  const id = `${purpose}\u0000${source}`;
  let sealer = sealers.get(id);
  if (!sealer) {
    sealer = sealerFrom(key, purpose);
    sealers.set(id, sealer);
  }
  return sealer;
}

/**
 * A fingerprint of the code key in force (CODE_KEY, else DATA_DIR/code.key), never creating the file: 16
 * hex digits derived from the key (HKDF, info of its own), which tell two keys apart without revealing
 * either. Null when there is no key yet. Backups carry it, so a restore can say that another key is in place.
 */
export function codeKeyFingerprint(opts: { dataDir: string; env?: NodeJS.ProcessEnv }): string | null {
  const envKey = (opts.env ?? process.env).CODE_KEY;
  let master: Buffer;
  if (envKey) master = parseEnvKey(envKey);
  else {
    const file = path.join(opts.dataDir, KEY_FILE);
    if (!fs.existsSync(file)) return null;
    master = fs.readFileSync(file);
  }
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'backup fingerprint v1', 8)).toString('hex');
}
