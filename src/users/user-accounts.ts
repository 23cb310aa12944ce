import type { DocumentService } from '../documents/document-service';
import type { Scope } from '../documents/scope';
import type { Filter, StoredDocument } from '../storage/types';
import { applicationError, badUserInput, validationErrors, type ValidationIssue } from '../errors/graphql-errors';
import type { JwtService } from '../auth/jwt';
import { USER_CONTENT_TYPE } from './users-content-types';
import { createDecoyCheck, verifyPassword } from '../documents/password-hash';
import { isRecord } from '../common/is-record';
import { isEmailAddress } from '../common/email-address';

/**
 * Local sign-up and sign-in, shared by `POST /api/auth/local[/register]` and the `register`/`login`
 * mutations, with Strapi's rules and messages. A sign-in failure says the same thing, and takes as
 * long, whether or not the identifier exists.
 */

export interface SignedIn {
  jwt: string;
  /** the user without private attributes (the role stays as a reference) */
  user: StoredDocument;
}

export interface UserAccounts {
  register(input: unknown): Promise<SignedIn>;
  login(input: unknown): Promise<SignedIn>;
  /** `user`: the signed-in user (its public fields), absent for any other caller */
  changePassword(user: StoredDocument | undefined, input: unknown): Promise<SignedIn>;
}

const PUBLISHED: Scope = { status: 'published' };
const REGISTER_FIELDS = ['username', 'email', 'password'];
const LOGIN_FIELDS = ['identifier', 'password'];
const CHANGE_PASSWORD_FIELDS = ['currentPassword', 'password', 'passwordConfirmation'];
const MIN_PASSWORD_LENGTH = 6;

const invalidCredentials = () => badUserInput('Invalid identifier or password');

const withoutPrivateAttributes = (row: StoredDocument): StoredDocument =>
  Object.fromEntries(
    Object.entries(row).filter(([name]) => {
      const attribute = USER_CONTENT_TYPE.attributes[name];
      return !name.startsWith('_') && attribute?.private !== true && attribute?.type !== 'password';
    }),
  );


/** yup's wording, which Strapi answers with: "email is a required field", "email must be a valid email". */
const requiredStrings = (input: Record<string, unknown>, fields: string[]): ValidationIssue[] =>
  fields.flatMap((field): ValidationIssue[] => {
    const value = input[field];
    if (value === undefined || value === null || value === '') return [{ path: [field], message: `${field} is a required field`, name: 'ValidationError' }];
    if (typeof value !== 'string') return [{ path: [field], message: `${field} must be a \`string\` type`, name: 'ValidationError', value }];
    return [];
  });

/** Strapi's bcrypt-era bound, which it keeps: longer passwords are refused, not hashed. */
const MAX_PASSWORD_BYTES = 72;

/** A new password's length issues (the value is a password: it is never echoed back). */
const passwordIssues = (password: unknown): ValidationIssue[] => {
  if (typeof password !== 'string' || password === '') return [];
  if (password.length < MIN_PASSWORD_LENGTH) return [{ path: ['password'], message: `password must be at least ${MIN_PASSWORD_LENGTH} characters`, name: 'ValidationError' }];
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) return [{ path: ['password'], message: 'Password must be less than 73 bytes', name: 'ValidationError' }];
  return [];
};

/** `present`: the fields that must be there (all on sign-up; those given, on an update). */
export const registrationIssues = (input: Record<string, unknown>, present: string[] = REGISTER_FIELDS): ValidationIssue[] => {
  const issues = requiredStrings(input, present);
  const { username, email, password } = input;
  const issue = (field: string, message: string, value: unknown): ValidationIssue => ({ path: [field], message: `${field} ${message}`, name: 'ValidationError', value });
  if (typeof username === 'string' && username !== '' && username.length < 3) issues.push(issue('username', 'must be at least 3 characters', username));
  if (typeof email === 'string' && email !== '' && !isEmailAddress(email)) issues.push(issue('email', 'must be a valid email', email));
  issues.push(...passwordIssues(password));
  return issues;
};

const newPasswordIssues = (input: Record<string, unknown>): ValidationIssue[] => {
  const issues = requiredStrings(input, CHANGE_PASSWORD_FIELDS);
  const { password, passwordConfirmation } = input;
  issues.push(...passwordIssues(password));
  if (issues.length === 0 && password !== passwordConfirmation) issues.push({ path: ['passwordConfirmation'], message: 'Passwords do not match', name: 'ValidationError' });
  return issues;
};

const isUniqueViolation = (error: unknown): boolean => {
  const details = (error as { extensions?: { error?: { details?: { errors?: ValidationIssue[] } } } }).extensions?.error?.details;
  return details?.errors?.some((issue) => issue.message === 'This attribute must be unique') ?? false;
};

export const createUserAccounts = ({ documents, jwt, defaultRoleId }: { documents: DocumentService; jwt: JwtService; defaultRoleId: string }): UserAccounts => {
  const decoyCheck = createDecoyCheck();
  const findUser = async (filter: Filter): Promise<StoredDocument | undefined> =>
    (await documents.findMany(USER_CONTENT_TYPE, PUBLISHED, { filter: { provider: 'local', ...filter }, limit: 1 }))[0];
  const taken = () => applicationError('Email or Username are already taken');
  const signedIn = (user: StoredDocument): SignedIn => ({ jwt: jwt.issue(user.id as number), user: withoutPrivateAttributes(user) });

  return {
    async register(input) {
      if (!isRecord(input)) throw badUserInput('Invalid parameters');
      // Role, confirmation, blocking, provider and private attributes are not the registrant's to set.
      const unknown = Object.keys(input).filter((key) => !REGISTER_FIELDS.includes(key));
      if (unknown.length > 0) throw badUserInput(`Invalid parameters: ${unknown.join(', ')}`);
      const issues = registrationIssues(input);
      if (issues.length > 0) throw validationErrors(issues);
      const username = input.username as string;
      const email = (input.email as string).toLowerCase();
      if (await findUser({ $or: [{ email }, { username }] })) throw taken();
      // the document service hashes password attributes as it stores them
      const data = { username, email, password: input.password as string, provider: 'local', confirmed: true, blocked: false, role: defaultRoleId };
      try {
        return signedIn(await documents.create(USER_CONTENT_TYPE, data, PUBLISHED));
      } catch (error) {
        // Two registrations racing for one name: the unique index decides, with the same answer.
        if (isUniqueViolation(error)) throw taken();
        throw error;
      }
    },

    async login(input) {
      if (!isRecord(input)) throw validationErrors(requiredStrings({}, LOGIN_FIELDS));
      const issues = requiredStrings(input, LOGIN_FIELDS);
      if (issues.length > 0) throw validationErrors(issues);
      if (input.provider !== undefined && input.provider !== 'local') throw applicationError('This provider is disabled');
      const identifier = input.identifier as string;
      const password = input.password as string;
      const user = await findUser({ $or: [{ email: identifier.toLowerCase() }, { username: identifier }] });
      if (!user || typeof user.password !== 'string') {
        await decoyCheck(password);
        throw invalidCredentials();
      }
      if (!(await verifyPassword(password, user.password))) throw invalidCredentials();
      if (user.blocked === true) throw applicationError('Your account has been blocked by an administrator');
      return signedIn(user);
    },

    async changePassword(caller, input) {
      if (!caller) throw applicationError('You must be authenticated to reset your password');
      const issues = isRecord(input) ? newPasswordIssues(input) : requiredStrings({}, CHANGE_PASSWORD_FIELDS);
      if (issues.length > 0) throw validationErrors(issues);
      const { currentPassword, password } = input as Record<string, string>;
      const user = await findUser({ id: caller.id as number });
      if (!user || typeof user.password !== 'string' || !(await verifyPassword(currentPassword, user.password))) {
        throw badUserInput('The provided current password is invalid');
      }
      if (currentPassword === password) throw badUserInput('Your new password must be different than your current password');
      const updated = await documents.update(USER_CONTENT_TYPE, user.documentId as string, { password }, PUBLISHED);
      return signedIn(updated);
    },
  };
};
