import type { DocumentService } from '../documents/document-service';
import type { Store, StoredDocument } from '../storage/types';
import type { JwtService } from '../auth/jwt';
import { applicationError, badUserInput, validationErrors } from '../errors/graphql-errors';
import { isRecord } from '../common/is-record';
import { USER_CONTENT_TYPE } from './users-content-types';
import { emailRequestIssues, newPasswordIssues } from './account-input';
import { hasExpired, issueCode, RESET_CODE_LIFETIME_MS, storedFormOf } from './one-time-codes';
import { signInWith, type SignedIn } from './signed-in';
import { createUserLookup } from './user-lookup';
import type { CodeMail } from './account-mail';
import type { BackgroundTasks } from '../common/background-tasks';

/**
 * Strapi's forgot-password and reset-password (`POST /api/auth/forgot-password`, `/reset-password`,
 * and the `forgotPassword`/`resetPassword` mutations). Forgot-password answers `{ ok: true }` whether
 * or not the address has an account, and as soon: the code is kept and mailed after the answer (a failure
 * goes to the log), so neither the answer nor its time tells which addresses have accounts. The code opens
 * one password change, within the hour.
 */

export interface PasswordReset {
  forgotPassword(input: unknown): Promise<{ ok: true }>;
  resetPassword(input: unknown): Promise<SignedIn>;
}

const RESET_FIELDS = ['password', 'passwordConfirmation', 'code'];

export const createPasswordReset = ({ documents, store, jwt, mail, afterAnswer }: { documents: DocumentService; store: Store; jwt: JwtService; mail: CodeMail; afterAnswer: BackgroundTasks }): PasswordReset => {
  const users = store.collection(USER_CONTENT_TYPE.collectionName);
  const findUser = createUserLookup(documents);
  const signedIn = signInWith(jwt);

  const mailCode = async (user: StoredDocument) => {
    const { code, stored } = issueCode(RESET_CODE_LIFETIME_MS);
    // Kept before sending, as Strapi does; a code whose mail failed was never seen, and the next request replaces it.
    await users.updateOne({ id: user.id }, { $set: { resetPasswordToken: stored } });
    await mail.send(user, code);
  };

  return {
    async forgotPassword(input) {
      const issues = emailRequestIssues(isRecord(input) ? input : {});
      if (issues.length > 0) throw validationErrors(issues);
      // before the lookup: whether mail works must not depend on whether the account exists
      mail.check();
      const user = await findUser({ email: (input as { email: string }).email.toLowerCase() });
      if (user && user.blocked !== true) afterAnswer.run(`users-permissions: the password reset of user ${String(user.id)}`, () => mailCode(user));
      return { ok: true };
    },

    async resetPassword(input) {
      const issues = newPasswordIssues(isRecord(input) ? input : {}, RESET_FIELDS);
      if (issues.length > 0) throw validationErrors(issues);
      const { code, password } = input as Record<string, string>;
      const stored = storedFormOf(code);
      const user = hasExpired(code) ? undefined : await findUser({ resetPasswordToken: stored });
      // The code is taken off the row only if it is still there: of two requests racing with one code, one wins.
      if (!user || (await users.updateOne({ id: user.id, resetPasswordToken: stored }, { $set: { resetPasswordToken: null } })) === 0) {
        throw badUserInput('Incorrect code provided');
      }
      if (user.blocked === true) throw applicationError('Your account has been blocked by an administrator');
      return signedIn(await documents.update(USER_CONTENT_TYPE, user.documentId as string, { password }, { status: 'published' }));
    },
  };
};
