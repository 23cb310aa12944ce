import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import type { HttpRoute } from '../folio-module';
import type { Services } from '../../context';
import type { Authenticator } from '../../auth/authenticate';
import type { Principal } from '../../auth/principal';
import { knownErrorBodyOf } from '../error-envelope';
import { readJsonBody, sendError, sendJson, sendReadWithin } from '../http-json';
import { createRequestAuthorizer } from '../request-authorizer';
import { unauthorizedError } from '../../errors/graphql-errors';
import { refuseOverLimit, type RateLimiter } from '../../users/rate-limiter';
import { clientAddressOf } from '../../resolvers/client-address';
import type { SignedIn, UserAccounts } from '../../users/user-accounts';
import type { PasswordReset } from '../../users/password-reset';
import type { EmailConfirmation } from '../../users/email-confirmation';
import type { UserAdmin } from '../../users/user-admin';
import type { RoleAdmin } from '../../users/role-admin';
import { roleRoutes, type RouteEntry, type RouteHandler } from './role-routes';
import { createUserQueries } from '../../users/user-queries';
import { createBareReads, type BareQuery, type BareReadOutcome } from '../content-routes/bare-reads';
import * as names from '../../sdl/naming';
import type { RestCalls } from '../../rest-compiler/rest-calls';
import { CHANGE_PASSWORD_PERMISSION, ME_PERMISSION, USER_WRITE_PERMISSIONS } from '../../users/roles';
import { userTypeOf } from '../../users/users-content-types';
import { LIST_QUERY_PARAMETERS, parseQueryString } from '../../rest-compiler/parse-query-string';
import type { GraphQLSchema } from 'graphql';

/**
 * Strapi's users-permissions REST routes: local sign-up and sign-in (`{ jwt, user }`), password reset and
 * e-mail confirmation, and the users endpoints, which answer bare JSON (no `{ data, meta }`) behind
 * `plugin::users-permissions.user.*`.
 */

export interface UsersRoutesOptions {
  services: Services;
  accounts: UserAccounts;
  admin: UserAdmin;
  roleAdmin: RoleAdmin;
  passwordReset: PasswordReset;
  emailConfirmation: EmailConfirmation;
  authenticator: Authenticator;
  limiter: RateLimiter;
  schema: GraphQLSchema;
  rest: RestCalls;
}

const USER_QUERY_PARAMETERS: ReadonlySet<string> = new Set(LIST_QUERY_PARAMETERS);

/** Anything but Folio's own errors is rethrown for the server's 500. */
const sendFailure = (response: ServerResponse, error: unknown) => {
  const body = knownErrorBodyOf(error);
  if (!body) throw error;
  // The rate limiter's refusal says when to come back in headers its error carries for yoga.
  const http = error instanceof GraphQLError ? (error.extensions.http as { headers?: Record<string, string> } | undefined) : undefined;
  sendError(response, body, http?.headers);
};

export const createUsersRoutes = ({ services, accounts, admin, roleAdmin, passwordReset, emailConfirmation, authenticator, limiter, schema, rest }: UsersRoutesOptions): HttpRoute[] => {
  const queries = createUserQueries(services);
  const userType = userTypeOf(services.models);
  const reads = createBareReads(schema, rest, {
    contentType: userType,
    listField: names.connectionQueryName(userType),
    oneField: names.singularQueryName(userType),
    maxLimit: services.config.rest.maxLimit,
  });
  const { maxResponseBytes } = services.config.graphql;

  /** A read's answer, or the error its operation ended with (a read that found nothing: 404). */
  const sendRead = <T>(request: IncomingMessage, response: ServerResponse, outcome: BareReadOutcome<T>) => {
    if ('found' in outcome) return sendReadWithin(request, response, maxResponseBytes, outcome.found);
    sendError(response, outcome.failed);
  };

  const { principalOf, authorize } = createRequestAuthorizer(authenticator);

  const bodyOf = (request: IncomingMessage) => readJsonBody(request, services.config.rest.bodyLimit);

  /** The auth routes: counted per client and refused past the rate limit; `permission`, when the route needs one. */
  const limited =
    (respond: (request: IncomingMessage, response: ServerResponse, url: URL, principal: Principal) => Promise<void>, permission?: string): RouteHandler =>
    async (request, response, url) => {
      // A stale or forged bearer is refused here too, as the GraphQL mutations refuse it.
      const principal = permission ? await authorize(request, permission) : await principalOf(request);
      const decision = await limiter.hit(clientAddressOf(request, services.config.server.proxy));
      const headers = {
        'x-ratelimit-limit': String(decision.limit),
        'x-ratelimit-remaining': String(decision.remaining),
        'x-ratelimit-reset': String(Math.ceil(decision.resetAt / 1000)),
      };
      for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
      refuseOverLimit(decision);
      await respond(request, response, url, principal);
    };

  /** Answered with a JWT and the user (only the user after a sign-up that waits for its e-mail confirmation). */
  const signIn = (action: (input: unknown, principal: Principal) => Promise<SignedIn>, permission?: string): RouteHandler =>
    limited(async (request, response, _url, principal) => {
      const { jwt, user } = await action(await bodyOf(request), principal);
      sendJson(response, 200, { jwt, user: queries.toRest(user) });
    }, permission);

  /** Strapi's redirect after a confirmation: `email_confirmation_redirection`, else the site's root. */
  const redirectTarget = services.config.usersPermissions.emailConfirmationRedirection ?? '/';

  const parseQuery = (url: URL): BareQuery => parseQueryString(url.search, USER_QUERY_PARAMETERS, services.config.rest.strictQuery);

  const handlers: RouteEntry[] = [
    ...roleRoutes({ roles: roleAdmin, authorize, bodyOf }),
    { method: 'POST', path: /^\/api\/auth\/local\/register\/?$/, handle: () => signIn(accounts.register) },
    { method: 'POST', path: /^\/api\/auth\/local\/?$/, handle: () => signIn(accounts.login) },
    {
      method: 'POST',
      path: /^\/api\/auth\/change-password\/?$/,
      handle: () => signIn((input, principal) => accounts.changePassword(principal.user, input), CHANGE_PASSWORD_PERMISSION),
    },
    {
      method: 'POST',
      path: /^\/api\/auth\/forgot-password\/?$/,
      handle: () => limited(async (request, response) => sendJson(response, 200, await passwordReset.forgotPassword(await bodyOf(request)))),
    },
    { method: 'POST', path: /^\/api\/auth\/reset-password\/?$/, handle: () => signIn(passwordReset.resetPassword) },
    {
      method: 'GET',
      path: /^\/api\/auth\/email-confirmation\/?$/,
      handle: () =>
        limited(async (_request, response, url) => {
          await emailConfirmation.confirm({ confirmation: url.searchParams.get('confirmation') ?? undefined });
          response.writeHead(302, { location: redirectTarget, 'content-type': 'text/plain; charset=utf-8' });
          response.end(`Redirecting to ${redirectTarget}.`);
        }),
    },
    {
      method: 'POST',
      path: /^\/api\/auth\/send-email-confirmation\/?$/,
      handle: () => limited(async (request, response) => sendJson(response, 200, await emailConfirmation.resend(await bodyOf(request)))),
    },
    {
      method: 'GET',
      path: /^\/api\/users\/me\/?$/,
      handle: () => async (request, response, url) => {
        const principal = await authorize(request, ME_PERMISSION);
        // An API token may hold `me`, but it is nobody.
        if (!principal.user) throw unauthorizedError('Unauthorized');
        const user = await queries.findOwn(principal.user.id as number, parseQuery(url).populate);
        if (!user) throw unauthorizedError();
        sendJson(response, 200, user);
      },
    },
    {
      method: 'GET',
      path: /^\/api\/users\/count\/?$/,
      handle: () => async (request, response, url) => sendRead(request, response, await reads.count(request, url, parseQuery(url))),
    },
    {
      method: 'GET',
      path: /^\/api\/users\/?$/,
      handle: () => async (request, response, url) => sendRead(request, response, await reads.find(request, url, parseQuery(url))),
    },
    {
      method: 'POST',
      path: /^\/api\/users\/?$/,
      handle: () => async (request, response) => {
        await authorize(request, USER_WRITE_PERMISSIONS.create);
        sendJson(response, 201, queries.toRest(await admin.create(await bodyOf(request))));
      },
    },
    {
      method: 'PUT',
      path: /^\/api\/users\/(\d+)\/?$/,
      handle: (match) => async (request, response) => {
        await authorize(request, USER_WRITE_PERMISSIONS.update);
        sendJson(response, 200, queries.toRest(await admin.update(Number(match[1]), await bodyOf(request))));
      },
    },
    {
      method: 'DELETE',
      path: /^\/api\/users\/(\d+)\/?$/,
      handle: (match) => async (request, response) => {
        await authorize(request, USER_WRITE_PERMISSIONS.destroy);
        sendJson(response, 200, queries.toRest(await admin.remove(Number(match[1]))));
      },
    },
    {
      method: 'GET',
      path: /^\/api\/users\/([^/]+)\/?$/,
      handle: (match) => async (request, response, url) => {
        const query = parseQuery(url);
        const documentId = /^\d+$/.test(match[1]) ? await queries.documentIdOf(Number(match[1])) : undefined;
        sendRead(request, response, await reads.findOne(request, url, documentId, query));
      },
    },
  ];

  return [
    async (request, response, url) => {
      for (const { method, path, handle } of handlers) {
        const match = path.exec(url.pathname);
        if (!match || request.method !== method) continue;
        try {
          await handle(match)(request, response, url);
        } catch (error) {
          sendFailure(response, error);
        }
        return true;
      }
      return false;
    },
  ];
};
