import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StoredDocument } from '../../storage/types';
import { sendJson } from '../http-json';
import type { RoleAdmin } from '../../users/role-admin';
import { ROLE_CONTENT_TYPE, publicFieldsOf } from '../../users/users-content-types';
import { ROLE_READ_PERMISSIONS, ROLE_WRITE_PERMISSIONS } from '../../users/roles';

/**
 * Strapi's role routes under `/api/users-permissions` (its role and permissions controllers), answering
 * bare JSON as Strapi does: `{ roles }`, `{ role }`, `{ ok: true }`, `{ permissions }`. The writes are the
 * role mutations' own, through the one role administration.
 */

export type RouteHandler = (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<void>;
export interface RouteEntry {
  method: string;
  path: RegExp;
  handle: (match: RegExpExecArray) => RouteHandler;
}

export interface RoleRoutesOptions {
  roles: RoleAdmin;
  authorize: (request: IncomingMessage, permission: string) => Promise<unknown>;
  bodyOf: (request: IncomingMessage) => Promise<unknown>;
}

const ROLE_FIELDS = publicFieldsOf(ROLE_CONTENT_TYPE);
const shown = (role: StoredDocument, extra: string): StoredDocument =>
  Object.fromEntries([...ROLE_FIELDS, extra].filter((key) => key in role).map((key) => [key, role[key]]));

export const roleRoutes = ({ roles, authorize, bodyOf }: RoleRoutesOptions): RouteEntry[] => {
  const guarded =
    (permission: string, respond: (request: IncomingMessage, match: RegExpExecArray) => Promise<unknown>) =>
    (match: RegExpExecArray): RouteHandler =>
    async (request, response) => {
      await authorize(request, permission);
      sendJson(response, 200, await respond(request, match));
    };
  const ok = { ok: true };
  return [
    {
      method: 'GET',
      path: /^\/api\/users-permissions\/roles\/?$/,
      handle: guarded(ROLE_READ_PERMISSIONS.find, async () => ({ roles: (await roles.list()).map((role) => shown(role, 'nb_users')) })),
    },
    {
      method: 'GET',
      path: /^\/api\/users-permissions\/roles\/([^/]+)\/?$/,
      handle: guarded(ROLE_READ_PERMISSIONS.findOne, async (_, match) => ({ role: shown(await roles.findOne(match[1]), 'permissions') })),
    },
    {
      method: 'POST',
      path: /^\/api\/users-permissions\/roles\/?$/,
      handle: guarded(ROLE_WRITE_PERMISSIONS.create, async (request) => (await roles.create(await bodyOf(request)), ok)),
    },
    {
      method: 'PUT',
      path: /^\/api\/users-permissions\/roles\/([^/]+)\/?$/,
      handle: guarded(ROLE_WRITE_PERMISSIONS.update, async (request, match) => (await roles.update(match[1], await bodyOf(request)), ok)),
    },
    {
      method: 'DELETE',
      path: /^\/api\/users-permissions\/roles\/([^/]+)\/?$/,
      handle: guarded(ROLE_WRITE_PERMISSIONS.destroy, async (_, match) => (await roles.remove(match[1]), ok)),
    },
    {
      method: 'GET',
      path: /^\/api\/users-permissions\/permissions\/?$/,
      handle: guarded(ROLE_READ_PERMISSIONS.actions, async () => ({ permissions: roles.actions() })),
    },
  ];
};
