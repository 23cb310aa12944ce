import type { DocumentService } from '../documents/document-service';
import type { Store, StoredDocument } from '../storage/types';
import type { JwtService } from '../auth/jwt';
import { applicationError, badUserInput, validationErrors } from '../errors/graphql-errors';
import { isRecord } from '../common/is-record';
import { USER_CONTENT_TYPE } from './users-content-types';
import { emailRequestIssues, requiredStrings } from './account-input';
import { CONFIRMATION_CODE_LIFETIME_MS, hasExpired, issueCode, storedFormOf } from './one-time-codes';
import { signInWith, type SignedIn } from './signed-in';
import { createUserLookup } from './user-lookup';
import type { CodeMail } from './account-mail';
import type { ConfirmationMail } from './user-accounts';

/**
 * Strapi's e-mail confirmation: the link mailed at sign-up (or again by `POST /api/auth/send-email-confirmation`)
 * carries a code that confirms the account once (`GET /api/auth/email-confirmation?confirmation=…`, or the
 * `emailConfirmation` mutation, which also signs in), within a day.
 */

export interface EmailConfirmation extends ConfirmationMail {
  confirm(input: unknown): Promise<SignedIn>;
  resend(input: unknown): Promise<{ email: string; sent: true }>;
}

export const createEmailConfirmation = ({ documents, store, jwt, mail }: { documents: DocumentService; store: Store; jwt: JwtService; mail: CodeMail }): EmailConfirmation => {
  const users = store.collection(USER_CONTENT_TYPE.collectionName);
  const findUser = createUserLookup(documents);
  const signedIn = signInWith(jwt);

  const send = async (user: StoredDocument) => {
    const { code, stored } = issueCode(CONFIRMATION_CODE_LIFETIME_MS);
    await users.updateOne({ id: user.id }, { $set: { confirmationToken: stored } });
    await mail.send(user, code);
  };

  return {
    send,

    async confirm(input) {
      const issues = requiredStrings(isRecord(input) ? input : {}, ['confirmation']);
      if (issues.length > 0) throw validationErrors(issues);
      const code = (input as { confirmation: string }).confirmation;
      const stored = storedFormOf(code);
      const user = hasExpired(code) ? undefined : await findUser({ confirmationToken: stored });
      // taken off the row only if still there: a link followed twice at once confirms once
      if (!user || (await users.updateOne({ id: user.id, confirmationToken: stored }, { $set: { confirmationToken: null } })) === 0) {
        throw badUserInput('Invalid token');
      }
      return signedIn(await documents.update(USER_CONTENT_TYPE, user.documentId as string, { confirmed: true }, { status: 'published' }));
    },

    async resend(input) {
      const issues = emailRequestIssues(isRecord(input) ? input : {});
      if (issues.length > 0) throw validationErrors(issues);
      mail.check();
      const email = (input as { email: string }).email;
      const user = await findUser({ email: email.toLowerCase() });
      if (!user) return { email, sent: true };
      if (user.confirmed === true) throw applicationError('Already confirmed');
      if (user.blocked === true) throw applicationError('User blocked');
      await send(user);
      return { email: user.email as string, sent: true };
    },
  };
};
