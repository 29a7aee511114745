import { hash as digestOf, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** 256-bit random session key, URL-safe. */
export const newKey = () => randomBytes(32).toString('base64url');
/** SHA-256 of a session key, hex: what the sessions table stores. One-shot (`crypto.hash`, Node 20.12+): no Hash object per call. */
export const hashKey = (key: string) => digestOf('sha256', key, 'hex');

const ARGON = { algorithm: 2 /* Argon2id */ as const, memoryCost: 19456, timeCost: 2, parallelism: 1 };
export const hashPassword = (password: string) => hash(password, ARGON);
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
/** Compared against when the username is unknown, so both failures take the same time. */
export const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$INqtuNsIUsScgEqfsrvgSg$62mX9jVneM0hcbfOdtZfv1FNt8XsFhmD93Cuqj++6cQ';
