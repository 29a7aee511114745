import { z } from 'zod';
import { answer, defineEndpoints, get, noInput, nullAnswer, post } from '../endpoint';

/*
 * The second factor (trust-api.md, "Second factor"): TOTP (RFC 6238: SHA-1, 6 digits, 30 s steps, one
 * step of drift either way) with ten single-use recovery codes, for admins and institutions alike (the
 * account is the session's, never the input's). Sign-in with a second factor answers a challenge in place
 * of a key; `POST /login/mfa` trades the challenge and a code for the key. The endpoint table is `mfaApi`
 * at the end of this file.
 *
 * Codes travel as `code` and are parsed into `passcode` (and the challenge into `challenge_token`), so that
 * the audit trail and the logs redact them like every other secret-looking field.
 */

/** A TOTP code: six digits. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_S = 30;
/** How many recovery codes enabling (or regenerating) answers. */
export const RECOVERY_CODE_COUNT = 10;
/** A recovery code: 16 Crockford base-32 symbols (80 bits), shown as four groups of four. */
export const RECOVERY_CODE_LENGTH = 16;
/** How long a sign-in challenge lives. */
export const CHALLENGE_MINUTES = 5;

/** Digits, or a recovery code with its dashes and spaces: what a person may type. Checked for shape by the server. */
export const codeText = z.string().max(64);

export const mfaCodeBody = z.object({ code: codeText }).transform(({ code }) => ({ passcode: code }));
export type MfaCodeBody = z.infer<typeof mfaCodeBody>;

export const loginMfaBody = z.object({ challenge: z.string().max(128), code: codeText }).transform(({ challenge, code }) => ({ challenge_token: challenge, passcode: code }));
export type LoginMfaBody = z.infer<typeof loginMfaBody>;

export interface MfaStatus {
  /** A second factor is on: sign-ins ask for a code. */
  enabled: boolean;
  /** The platform requires one of this account (parameter `mfa_required_admins`, admins only). */
  required: boolean;
  /** A setup was started and awaits its first code. */
  pending: boolean;
  /** Unused recovery codes left (0 when off). */
  recovery_codes_left: number;
}

export interface MfaSetupAnswer {
  /** Base32, for typing into an authenticator app. */
  secret: string;
  /** `otpauth://totp/...`: what the QR code carries. */
  otpauth_url: string;
}

export interface RecoveryCodesAnswer {
  /** Shown once: the server keeps only their hashes. */
  recovery_codes: string[];
}

/** What a sign-in answers when the account has a second factor: no key yet. */
export interface MfaChallengeAnswer {
  mfa_required: true;
  challenge: string;
}

export const mfaApi = defineEndpoints('mfa', {
  /** Whether the caller's account has a second factor, and whether it is required of it. */
  status: get('/mfa/status', { session: true, mfaSetup: true }, noInput, answer<MfaStatus>()),
  /** A new secret, not active until confirmed by `enable` (a new setup replaces a pending one). */
  setup: post('/mfa/setup', { session: true, mfaSetup: true }, noInput, answer<MfaSetupAnswer>(), { audit: 'mfa' }),
  /** Confirms the pending secret with a first valid code; answers ten recovery codes, once. */
  enable: post('/mfa/enable', { session: true, mfaSetup: true }, mfaCodeBody, answer<RecoveryCodesAnswer>(), { audit: 'mfa' }),
  /** Turns the second factor off with a current code or a recovery code. */
  disable: post('/mfa/disable', { session: true, mfaSetup: true }, mfaCodeBody, nullAnswer, { audit: 'mfa', stepUp: true }),
  /** Ten new recovery codes (the old ones stop working), with a current code. */
  recoveryCodes: post('/mfa/recovery_codes', { session: true, mfaSetup: true }, mfaCodeBody, answer<RecoveryCodesAnswer>(), { audit: 'mfa', stepUp: true }),
  /** The sign-in's second step: the challenge and a code (or a recovery code) for the key. */
  login: post('/login/mfa', { public: true }, loginMfaBody, answer<{ key: string; id: number }>(), { audit: false }),
});
