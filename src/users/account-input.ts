import type { ValidationIssue } from '../errors/graphql-errors';
import { isEmailAddress } from '../common/email-address';

/**
 * The checks of what users send to the auth routes, with the messages Strapi answers with (yup's
 * wording: "email is a required field", "email must be a valid email"). Passwords are never echoed back.
 */

export const REGISTER_FIELDS = ['username', 'email', 'password'];
const MIN_PASSWORD_LENGTH = 6;
/** Strapi's bcrypt-era bound, which it keeps: longer passwords are refused, not hashed. */
const MAX_PASSWORD_BYTES = 72;

export const requiredStrings = (input: Record<string, unknown>, fields: string[]): ValidationIssue[] =>
  fields.flatMap((field): ValidationIssue[] => {
    const value = input[field];
    if (value === undefined || value === null || value === '') return [{ path: [field], message: `${field} is a required field`, name: 'ValidationError' }];
    if (typeof value !== 'string') return [{ path: [field], message: `${field} must be a \`string\` type`, name: 'ValidationError', value }];
    return [];
  });

/** A new password's length issues. */
const passwordIssues = (password: unknown): ValidationIssue[] => {
  if (typeof password !== 'string' || password === '') return [];
  if (password.length < MIN_PASSWORD_LENGTH) return [{ path: ['password'], message: `password must be at least ${MIN_PASSWORD_LENGTH} characters`, name: 'ValidationError' }];
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) return [{ path: ['password'], message: 'Password must be less than 73 bytes', name: 'ValidationError' }];
  return [];
};

const emailIssues = (email: unknown): ValidationIssue[] =>
  typeof email === 'string' && email !== '' && !isEmailAddress(email) ? [{ path: ['email'], message: 'email must be a valid email', name: 'ValidationError', value: email }] : [];

/** `present`: the fields that must be there (all on sign-up; those given, on an update). */
export const registrationIssues = (input: Record<string, unknown>, present: string[] = REGISTER_FIELDS): ValidationIssue[] => {
  const issues = requiredStrings(input, present);
  const { username, password } = input;
  if (typeof username === 'string' && username !== '' && username.length < 3) {
    issues.push({ path: ['username'], message: 'username must be at least 3 characters', name: 'ValidationError', value: username });
  }
  issues.push(...emailIssues(input.email), ...passwordIssues(password));
  return issues;
};

/** `{ email }` of forgot-password and send-email-confirmation. */
export const emailRequestIssues = (input: Record<string, unknown>): ValidationIssue[] => [...requiredStrings(input, ['email']), ...emailIssues(input.email)];

/** A new password and its confirmation, with the other `fields` required beside them (the current password, the reset code). */
export const newPasswordIssues = (input: Record<string, unknown>, fields: string[]): ValidationIssue[] => {
  const issues = requiredStrings(input, fields);
  const { password, passwordConfirmation } = input;
  issues.push(...passwordIssues(password));
  if (issues.length === 0 && password !== passwordConfirmation) issues.push({ path: ['passwordConfirmation'], message: 'Passwords do not match', name: 'ValidationError' });
  return issues;
};
