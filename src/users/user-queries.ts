import type { Services } from '../context';
import type { StoredDocument } from '../storage/types';
import { createUserLookup } from './user-lookup';
import { badUserInput } from '../errors/graphql-errors';
import type { Scope } from '../documents/scope';
import { ROLE_CONTENT_TYPE, publicFieldsOf, userTypeOf } from './users-content-types';
import { isRecord } from '../common/is-record';

/**
 * What the users routes read outside the schema's queries: the caller's own record (`/api/users/me`,
 * whose role is theirs to see, as through `me { role }`), and the documentId a numeric id in a path
 * stands for. Every other read of users is a compiled operation (server/content-routes/bare-reads.ts).
 */

const PUBLISHED: Scope = { status: 'published' };

const pick = (row: StoredDocument, fields: string[]): StoredDocument =>
  Object.fromEntries(fields.filter((field) => field in row).map((field) => [field, row[field]]));

/** `populate` of `/api/users/me`: nothing, or the role (`role`, `*`, `[role]`, `{ role: … }`). */
const populatesRole = (populate: unknown): boolean => {
  if (populate === undefined || populate === null || populate === '') return false;
  if (populate === '*') return true;
  const names =
    typeof populate === 'string'
      ? populate.split(',').map((name) => name.trim())
      : Array.isArray(populate)
        ? populate.map(String)
        : isRecord(populate)
          ? Object.keys(populate)
          : [String(populate)];
  const unknown = names.find((name) => name !== 'role');
  if (unknown !== undefined) throw badUserInput(`Invalid key ${unknown}`, { key: unknown, path: null, source: 'query', param: 'populate' });
  return names.length > 0;
};

export const createUserQueries = ({ documents, models }: Services) => {
  const userType = userTypeOf(models);
  const findUser = createUserLookup(documents, userType);
  return {
    /** the REST shape of a user: public attributes in Strapi's order, relations only when populated */
    toRest: (user: StoredDocument): StoredDocument => pick(user, publicFieldsOf(userType)),
    async findOwn(id: number, populate: unknown): Promise<StoredDocument | undefined> {
      const withRole = populatesRole(populate);
      const user = await findUser({ id });
      if (!user) return undefined;
      const shown = pick(user, publicFieldsOf(userType));
      if (!withRole) return shown;
      const role = typeof user.role === 'string' ? await documents.findOne(ROLE_CONTENT_TYPE, user.role, PUBLISHED) : null;
      return { ...shown, role: role ? pick(role, publicFieldsOf(ROLE_CONTENT_TYPE)) : null };
    },
    async documentIdOf(id: number): Promise<string | undefined> {
      return (await findUser({ id }))?.documentId as string | undefined;
    },
  };
};
