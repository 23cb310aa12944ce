import type { FolioConfig } from '../config/types';
import type { DocumentService } from '../documents/document-service';
import type { Scope } from '../documents/scope';
import type { ContentType } from '../models/types';
import type { StoredDocument } from '../storage/types';
import { applicationError, badUserInput, notFoundError, validationErrors, type ValidationIssue } from '../errors/graphql-errors';
import { suggestKey } from '../config/suggest-key';
import { isRecord } from '../common/is-record';
import { ROLE_CONTENT_TYPE } from './users-content-types';
import { AUTHENTICATED_ROLE, isConfiguredRole, PUBLIC_ROLE, readGrantRows, setRoleGrants } from './roles';
import type { RoleGrants } from './role-grants';

/**
 * Strapi's role administration (`createUsersPermissionsRole`, `updateUsersPermissionsRole`,
 * `deleteUsersPermissionsRole` and their REST routes), for roles the configuration does not own.
 * Permissions are given as a list of actions (`["api::article.article.find"]`), or in the nested shape
 * Strapi's admin panel sends (`{ "api::article": { controllers: { article: { find: { enabled: true } } } } }`).
 */

export interface RoleAdmin {
  /** every role, by name, with its number of users (`nb_users`), as Strapi's role controller lists them */
  list(): Promise<StoredDocument[]>;
  /** one role with every action there is, each `enabled` or not, in Strapi's nested shape */
  findOne(id: string): Promise<StoredDocument>;
  /** every action there is, none enabled: what a role may be given */
  actions(): NestedPermissions;
  create(input: unknown): Promise<void>;
  /** `id`: the role's numeric id, as Strapi takes it, or its documentId */
  update(id: string, input: unknown): Promise<void>;
  remove(id: string): Promise<void>;
}

export interface RoleAdminOptions {
  documents: DocumentService;
  grants: RoleGrants;
  config: FolioConfig;
  /** every permission something checks: the only ones a role may be given */
  known: ReadonlySet<string>;
  userType: ContentType;
  publicRoleId: string;
}

/** `{ "api::article": { controllers: { article: { find: { enabled, policy } } } } }` */
export type NestedPermissions = Record<string, { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }>;

const PUBLISHED: Scope = { status: 'published' };

/** `known` sorted, so the answer lists types, controllers and actions in order */
const nestedPermissions = (known: readonly string[], enabled: ReadonlySet<string>): NestedPermissions => {
  const nested: NestedPermissions = {};
  for (const permission of known) {
    const last = permission.lastIndexOf('.');
    const first = permission.indexOf('.');
    if (first === last) continue;
    const type = permission.slice(0, first);
    const controller = permission.slice(first + 1, last);
    ((nested[type] ??= { controllers: {} }).controllers[controller] ??= {})[permission.slice(last + 1)] = { enabled: enabled.has(permission), policy: '' };
  }
  return nested;
};
/** `publishedAt` and `locale` are in Strapi's role input, as in every type's; roles have neither */
const IGNORED = ['publishedAt', 'locale'];
const CREATABLE = ['name', 'description', 'type', 'permissions'];
const UPDATABLE = ['name', 'description', 'permissions'];

/** lodash's `snakeCase(deburr(toLower(name)))`, which Strapi derives a role's type with */
const typeFromName = (name: string): string =>
  (name.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').match(/[a-z]+|[0-9]+/g) ?? []).join('_');

/** the enabled actions of Strapi's nested permissions object */
const nestedActions = (value: Record<string, unknown>): unknown[] =>
  Object.entries(value).flatMap(([type, entry]) =>
    Object.entries(isRecord(entry) && isRecord(entry.controllers) ? entry.controllers : {}).flatMap(([controller, actions]) =>
      Object.entries(isRecord(actions) ? actions : {})
        .filter(([, action]) => isRecord(action) && action.enabled === true)
        .map(([action]) => `${type}.${controller}.${action}`),
    ),
  );

const actionsOf = (value: unknown, known: ReadonlySet<string>, knownList: readonly string[]): Set<string> => {
  const actions = Array.isArray(value) ? value : isRecord(value) ? nestedActions(value) : undefined;
  if (!actions) throw validationErrors([{ path: ['permissions'], message: 'permissions must be a list of actions', name: 'ValidationError', value }]);
  const issues: ValidationIssue[] = [];
  actions.forEach((action, index) => {
    if (typeof action === 'string' && known.has(action)) return;
    const meant = typeof action === 'string' ? suggestKey(action, knownList) : undefined;
    issues.push({
      path: ['permissions', String(index)],
      message: `${JSON.stringify(action)} is not a permission anything here requires${meant ? ` (did you mean "${meant}"?)` : ''}`,
      name: 'ValidationError',
      value: action,
    });
  });
  if (issues.length > 0) throw validationErrors(issues);
  return new Set(actions as string[]);
};

/** The body's fields but those every type's input has and roles lack; a key not in `allowed` is refused. */
const bodyOf = (input: unknown, allowed: readonly string[]): Record<string, unknown> => {
  if (!isRecord(input)) throw badUserInput('Request body cannot be empty');
  const body = Object.fromEntries(Object.entries(input).filter(([key, value]) => !IGNORED.includes(key) && value !== undefined));
  if (Object.keys(body).length === 0) throw badUserInput('Request body cannot be empty');
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) throw badUserInput(`Invalid parameters: ${unknown.join(', ')}`);
  return body;
};

const pick = (body: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(keys.filter((key) => key in body).map((key) => [key, body[key]]));

export const createRoleAdmin = ({ documents, grants, config, known, userType, publicRoleId }: RoleAdminOptions): RoleAdmin => {
  const knownList = [...known].sort();
  const everyAction = nestedPermissions(knownList, new Set());
  const plugins = config.sources?.plugins ?? 'config/plugins';
  const grantsOf = (body: Record<string, unknown>) => (body.permissions === undefined ? undefined : actionsOf(body.permissions, known, knownList));
  /** a write to roles or grants, after which the grants are read again, whether it went through or not */
  const changingGrants = async (work: () => Promise<unknown>): Promise<void> => {
    try {
      await work();
    } finally {
      await grants.reload();
    }
  };

  const refuseConfigured = (type: string) => {
    if (isConfiguredRole(config, type)) throw applicationError(`The ${type} role is declared in ${plugins} (users-permissions.config.roles.${type}): change it there`);
  };
  const existing = async (id: string): Promise<StoredDocument> => {
    const filter = /^\d+$/.test(id) ? { id: Number(id) } : { documentId: id };
    const [role] = await documents.findMany(ROLE_CONTENT_TYPE, PUBLISHED, { filter, limit: 1 });
    if (!role) throw notFoundError('Role not found');
    return role;
  };
  const grantRowsOf = (role: StoredDocument) => readGrantRows(documents, role.documentId as string);

  return {
    async list() {
      const roles = await documents.findMany(ROLE_CONTENT_TYPE, PUBLISHED, { sort: [['name', 1]] });
      return Promise.all(roles.map(async (role) => ({ ...role, nb_users: await documents.count(userType, PUBLISHED, { role: role.documentId as string }) })));
    },
    async findOne(id) {
      const role = await existing(id);
      return { ...role, permissions: nestedPermissions(knownList, new Set((await grantRowsOf(role)).map((row) => row.action as string))) };
    },
    actions: () => everyAction,
    async create(input) {
      const body = bodyOf(input, CREATABLE);
      const actions = grantsOf(body) ?? new Set<string>();
      const data = pick(body, ['name', 'description', 'type']);
      if (data.type === undefined && typeof data.name === 'string') data.type = typeFromName(data.name);
      if (typeof data.type === 'string') refuseConfigured(data.type);
      await changingGrants(async () => {
        const role = await documents.create(ROLE_CONTENT_TYPE, data, PUBLISHED);
        await setRoleGrants(documents, role.documentId as string, actions, []);
      });
    },
    async update(id, input) {
      const body = bodyOf(input, UPDATABLE);
      const role = await existing(id);
      refuseConfigured(role.type as string);
      const actions = grantsOf(body);
      const data = pick(body, ['name', 'description']);
      if (Object.keys(data).length > 0) await documents.update(ROLE_CONTENT_TYPE, role.documentId as string, data, PUBLISHED);
      if (actions) await changingGrants(async () => setRoleGrants(documents, role.documentId as string, actions, await grantRowsOf(role)));
    },
    async remove(id) {
      const role = await existing(id);
      if (role.type === PUBLIC_ROLE) throw applicationError('Cannot delete public role');
      // Sign-up gives new users this role: without it nobody could sign up.
      if (role.type === AUTHENTICATED_ROLE) throw applicationError('Cannot delete authenticated role');
      refuseConfigured(role.type as string);
      await changingGrants(async () => {
        // as Strapi does: the role's users fall back to the Public role
        for (const user of await documents.findMany(userType, PUBLISHED, { filter: { role: role.documentId as string } })) {
          await documents.update(userType, user.documentId as string, { role: publicRoleId }, PUBLISHED);
        }
        await setRoleGrants(documents, role.documentId as string, new Set(), await grantRowsOf(role));
        await documents.remove(ROLE_CONTENT_TYPE, role.documentId as string, undefined);
      });
    },
  };
};
