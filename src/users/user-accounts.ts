import type { DocumentService } from '../documents/document-service';
import type { Scope } from '../documents/scope';
import type { Filter, StoredDocument } from '../storage/types';
import { GraphQLError } from 'graphql';
import { applicationError, badUserInput, serviceUnavailable, validationErrors, type ValidationIssue } from '../errors/graphql-errors';
import type { JwtService } from '../auth/jwt';
import { USER_CONTENT_TYPE } from './users-content-types';
import { createDecoyCheck, verifyPassword } from '../documents/password-hash';
import { isRecord } from '../common/is-record';
import { newPasswordIssues, REGISTER_FIELDS, registrationIssues, requiredStrings } from './account-input';
import { signInWith, withoutPrivateAttributes, type SignedIn } from './signed-in';
import { createUserLookup } from './user-lookup';

/**
 * Local sign-up and sign-in, shared by `POST /api/auth/local[/register]` and the `register`/`login`
 * mutations, with Strapi's rules and messages. A sign-in failure says the same thing, and takes as
 * long, whether or not the identifier exists.
 */

export type { SignedIn } from './signed-in';

export interface UserAccounts {
  register(input: unknown): Promise<SignedIn>;
  login(input: unknown): Promise<SignedIn>;
  /** `user`: the signed-in user (its public fields), absent for any other caller */
  changePassword(user: StoredDocument | undefined, input: unknown): Promise<SignedIn>;
}

/** Strapi's `email_confirmation`: new users are unconfirmed until they follow the link `send` mails them. */
export interface ConfirmationMail {
  send(user: StoredDocument): Promise<void>;
}

const PUBLISHED: Scope = { status: 'published' };
const LOGIN_FIELDS = ['identifier', 'password'];
const CHANGE_PASSWORD_FIELDS = ['currentPassword', 'password', 'passwordConfirmation'];

const invalidCredentials = () => badUserInput('Invalid identifier or password');

const isUniqueViolation = (error: unknown): boolean => {
  const details = (error as { extensions?: { error?: { details?: { errors?: ValidationIssue[] } } } }).extensions?.error?.details;
  return details?.errors?.some((issue) => issue.message === 'This attribute must be unique') ?? false;
};

export interface UserAccountsOptions {
  documents: DocumentService;
  jwt: JwtService;
  defaultRoleId: string;
  /** set when sign-up must be confirmed by e-mail */
  confirmation?: ConfirmationMail;
}

export const createUserAccounts = ({ documents, jwt, defaultRoleId, confirmation }: UserAccountsOptions): UserAccounts => {
  const decoyCheck = createDecoyCheck();
  const lookup = createUserLookup(documents);
  const findUser = (filter: Filter) => lookup({ provider: 'local', ...filter });
  const taken = () => applicationError('Email or Username are already taken');
  const signedIn = signInWith(jwt);

  const create = async (data: StoredDocument): Promise<StoredDocument> => {
    try {
      return await documents.create(USER_CONTENT_TYPE, data, PUBLISHED);
    } catch (error) {
      // Two registrations racing for one name: the unique index decides, with the same answer.
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  };

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
      const user = await create({ username, email, password: input.password as string, provider: 'local', confirmed: !confirmation, blocked: false, role: defaultRoleId });
      if (!confirmation) return signedIn(user);
      // As Strapi: the account stays if the mail fails. Signing up again would find it taken, so the 503
      // names the route that mails the link again instead of inviting a retry.
      try {
        await confirmation.send(user);
      } catch (error) {
        if (error instanceof GraphQLError && error.extensions.code === 'SERVICE_UNAVAILABLE') {
          throw serviceUnavailable('Error sending confirmation email: the account is made; ask for the link again with /api/auth/send-email-confirmation', null);
        }
        throw error;
      }
      return { user: withoutPrivateAttributes(user) };
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
      if (confirmation && user.confirmed !== true) throw applicationError('Your account email is not confirmed');
      if (user.blocked === true) throw applicationError('Your account has been blocked by an administrator');
      return signedIn(user);
    },

    async changePassword(caller, input) {
      if (!caller) throw applicationError('You must be authenticated to reset your password');
      const issues = isRecord(input) ? newPasswordIssues(input, CHANGE_PASSWORD_FIELDS) : requiredStrings({}, CHANGE_PASSWORD_FIELDS);
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
