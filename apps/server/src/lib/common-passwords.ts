import { createRequire } from 'node:module';

/**
 * The commonly used passwords that a new password may not be (ASVS 5.0 6.2.4): the password list of
 * `@zxcvbn-ts/language-common` (about 49,000 passwords from public breach corpora, maintained with the
 * zxcvbn-ts estimator), compared without case, since a list's `Password1` guesser tries every case. Loaded
 * once, on the first new password (the list is about 0.5 MB: no cost at start).
 */
let common: Set<string> | undefined;

function list(): Set<string> {
  if (!common) {
    const require = createRequire(import.meta.url);
    const { dictionary } = require('@zxcvbn-ts/language-common') as { dictionary: Record<string, string[]> };
    common = new Set(dictionary['passwords-common']!.map((p) => p.toLowerCase()));
  }
  return common;
}

/** Whether `password` is one of the commonly used passwords (case-insensitive). */
export function isCommonPassword(password: string): boolean {
  return list().has(password.toLowerCase());
}
