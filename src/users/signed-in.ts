import type { JwtService } from '../auth/jwt';
import type { StoredDocument } from '../storage/types';
import { USER_CONTENT_TYPE } from './users-content-types';

/** What sign-up, sign-in and the password and confirmation routes answer: a JWT and the user. */
export interface SignedIn {
  /** absent after a sign-up that waits for its e-mail confirmation */
  jwt?: string;
  /** the user without private attributes (the role stays as a reference) */
  user: StoredDocument;
}

export const withoutPrivateAttributes = (row: StoredDocument): StoredDocument =>
  Object.fromEntries(
    Object.entries(row).filter(([name]) => {
      const attribute = USER_CONTENT_TYPE.attributes[name];
      return !name.startsWith('_') && attribute?.private !== true && attribute?.type !== 'password';
    }),
  );

/** `user` signed in: a fresh JWT for its id. */
export const signInWith =
  (jwt: JwtService) =>
  (user: StoredDocument): SignedIn => ({ jwt: jwt.issue(user.id as number), user: withoutPrivateAttributes(user) });
