import { createHash, randomBytes } from 'node:crypto';

/**
 * The codes mailed for a password reset or an e-mail confirmation: 32 random bytes after their expiry
 * (`<expiry in ms, base 36>.<64 hex digits>`). Only a code's SHA-256 is stored, in the user's private
 * `resetPasswordToken` / `confirmationToken`: a copy of the database opens no account. The expiry is part
 * of what is hashed, so a code whose expiry was edited matches nothing.
 */

/** how long a password reset code is valid */
export const RESET_CODE_LIFETIME_MS = 60 * 60 * 1000;
/** how long an e-mail confirmation link is valid (send-email-confirmation mails a new one) */
export const CONFIRMATION_CODE_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface IssuedCode {
  /** what the mail carries */
  code: string;
  /** what the user row keeps */
  stored: string;
}

export const storedFormOf = (code: string): string => createHash('sha256').update(code).digest('hex');

export const issueCode = (lifetimeMs: number, now = Date.now()): IssuedCode => {
  const code = `${(now + lifetimeMs).toString(36)}.${randomBytes(32).toString('hex')}`;
  return { code, stored: storedFormOf(code) };
};

/** Past its expiry, or not a code Folio issued (no expiry to read). */
export const hasExpired = (code: string, now = Date.now()): boolean => {
  const expiry = /^([0-9a-z]{1,11})\.[0-9a-f]{64}$/.exec(code)?.[1];
  return expiry === undefined || parseInt(expiry, 36) <= now;
};
