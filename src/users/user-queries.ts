import type { Services } from '../context';
import type { StoredDocument } from '../storage/types';
import { badUserInput } from '../errors/graphql-errors';
import { createFilterTranslator } from '../query/translate-filters';
import { parseSort } from '../query/parse-sort';
import { parsePagination, type PaginationInput } from '../query/parse-pagination';
import { inheritScope, type Scope } from '../documents/scope';
import { permissionFor } from '../sdl/naming';
import type { Principal } from '../auth/principal';
import { ROLE_CONTENT_TYPE, USER_CONTENT_TYPE, publicFieldsOf } from './users-content-types';
import { isRecord } from '../common/is-record';
import { fromRestOperators } from '../query/rest-operators';

/**
 * Reads behind `GET /api/users[/:id|/count|/me]`: Strapi's `filters`, `sort`, `pagination` (or `start`/
 * `limit`) and `populate=role`, through the shared filter translator and sort parser, so a private
 * attribute is refused (400) as everywhere else.
 */

export interface UserQuery {
  filters?: unknown;
  sort?: unknown;
  pagination?: PaginationInput;
  start?: unknown;
  limit?: unknown;
  populate?: unknown;
}

const PUBLISHED: Scope = { status: 'published' };
/** the relations `populate` may name, with their targets */
const POPULATABLE = new Map([['role', ROLE_CONTENT_TYPE]]);


const pick = (row: StoredDocument, fields: string[]): StoredDocument =>
  Object.fromEntries(fields.filter((field) => field in row).map((field) => [field, row[field]]));

/**
 * A relation whose target the caller may not `find` cannot be populated: refused as an unknown key (Strapi's
 * rule). `'own'`: the caller's own record, whose role is theirs to see, as through `me { role }`.
 */
const populatedRelations = (populate: unknown, reader: Principal | 'own'): string[] => {
  if (populate === undefined || populate === null || populate === '') return [];
  const canRead = (name: string) => reader === 'own' || reader.can(permissionFor(POPULATABLE.get(name)!, 'find'));
  if (populate === '*') return [...POPULATABLE.keys()].filter(canRead);
  const names =
    typeof populate === 'string'
      ? populate.split(',').map((name) => name.trim())
      : Array.isArray(populate)
        ? populate.map(String)
        : isRecord(populate)
          ? Object.keys(populate)
          : [String(populate)];
  for (const name of names) {
    if (!POPULATABLE.has(name) || !canRead(name)) throw badUserInput(`Invalid key ${name}`, { key: name, path: null, source: 'query', param: 'populate' });
  }
  return names;
};

export const createUserQueries = ({ documents, config, models }: Services) => {
  const limits = { defaultLimit: config.rest.maxLimit, maxLimit: config.rest.maxLimit };
  const filterOf = (query: UserQuery, principal: Principal) =>
    createFilterTranslator({
      models,
      maxStringLength: config.graphql.maxFilterStringLength,
      canRead: (target) => principal.can(permissionFor(target, 'find')),
      lookup: async (target, filter, field) =>
        (await documents.findMany(target, inheritScope(target, PUBLISHED, config.i18n), { filter })).map((row) => row[field] ?? null),
    }).translate(USER_CONTENT_TYPE, fromRestOperators(models, USER_CONTENT_TYPE, query.filters));

  const rolesById = async (users: StoredDocument[]): Promise<Map<string, StoredDocument>> => {
    const ids = [...new Set(users.map((user) => user.role).filter((id): id is string => typeof id === 'string'))];
    const roles = await documents.findMany(ROLE_CONTENT_TYPE, PUBLISHED, { filter: { documentId: { $in: ids } } });
    return new Map(roles.map((role) => [role.documentId as string, pick(role, publicFieldsOf(ROLE_CONTENT_TYPE))]));
  };

  const toRestMany = async (users: StoredDocument[], populate: string[]): Promise<StoredDocument[]> => {
    const roles = populate.includes('role') ? await rolesById(users) : undefined;
    return users.map((user) => {
      const shown = pick(user, publicFieldsOf(USER_CONTENT_TYPE));
      return roles ? { ...shown, role: roles.get(user.role as string) ?? null } : shown;
    });
  };

  return {
    /** the REST shape of a user: public attributes in Strapi's order, relations only when populated */
    toRest: (user: StoredDocument): StoredDocument => pick(user, publicFieldsOf(USER_CONTENT_TYPE)),
    async find(query: UserQuery, principal: Principal): Promise<StoredDocument[]> {
      const populate = populatedRelations(query.populate, principal);
      const sort = parseSort(USER_CONTENT_TYPE.attributes, query.sort);
      const page = parsePagination(query.pagination ?? { start: query.start, limit: query.limit }, limits);
      const users = await documents.findMany(USER_CONTENT_TYPE, PUBLISHED, { filter: await filterOf(query, principal), sort, skip: page.skip, limit: page.limit });
      return toRestMany(users, populate);
    },
    async count(query: UserQuery, principal: Principal): Promise<number> {
      return documents.count(USER_CONTENT_TYPE, PUBLISHED, await filterOf(query, principal));
    },
    async findOne(id: number, query: UserQuery, reader: Principal | 'own'): Promise<StoredDocument | undefined> {
      const populate = populatedRelations(query.populate, reader);
      const [user] = await documents.findMany(USER_CONTENT_TYPE, PUBLISHED, { filter: { id }, limit: 1 });
      return user ? (await toRestMany([user], populate))[0] : undefined;
    },
  };
};
