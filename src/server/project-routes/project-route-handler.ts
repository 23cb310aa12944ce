import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import type { Runtime, HttpRoute } from '../folio-module';
import type { ContentType } from '../../models/types';
import type { ContentRoutes, ProjectRouteOperation, RouteOperation } from '../../rest-compiler/content-routes';
import type { PathSegment, ProjectRoute } from '../../project/route-table';
import type { CoreAction } from '../../project/strapi-packages';
import { createTokenPrincipal, withPermission, type Principal } from '../../auth/principal';
import { parseBuiltQuery, parseQueryObject } from '../../rest-compiler/parse-query-string';
import { permissionFor } from '../../sdl/naming';
import { forbiddenError, methodNotAllowedError, notFoundError } from '../../errors/graphql-errors';
import { errorBody } from '../error-envelope';
import { drainBody, readJsonBody, sendError } from '../http-json';
import type { RequestHead } from '../../graphql/fetch-request';
import { isV4 } from '../../rest-compiler/rest-calls';
import { errorBodyOf } from '../content-routes/rest-error';
import { coreReplyOf, parametersOf, type CoreReply } from '../content-routes/core-reply';
import { createKoaContext } from './koa-context';
import { NotImplementedError } from '../../project/strapi-errors';
import { createStrapiFacade, createStrapiLog, type CoreCall } from './strapi-facade';
import { createProjectControllers, type ControllerHandler, type CoreActionRunner } from './project-controllers';
import { codeOf } from './inherited-calls';
import { documentCalls, switchedOffCallMessage } from './document-calls';
import { ProjectCodeError, type ProjectCodeProblem } from '../../project/project-code-error';
import { middlewareStep, policyStep, runChain, type ChainStep } from './project-chain';
import { coreActionError, projectErrorBody, sendProjectAnswer } from './project-answer';

/**
 * The REST routes a project's route files declare (see project/route-table): each runs Strapi's
 * chain (the caller settled, the route's permission checked, policies, middlewares) around its
 * handler: a core action, which stays the compiled GraphQL operation of the content route through
 * the one pipeline, or a custom controller's action (project-controllers), whose core actions do the
 * same. `ctx.query` as the code leaves it is read by the REST query parser as if it had come over HTTP.
 */

interface ServedRoute {
  route: ProjectRoute;
  /** its policies and middlewares, then what it runs: all made once at start */
  steps: ChainStep[];
}

/** The request a ctx belongs to, for the core actions a controller runs on it. */
interface RequestScope {
  request: IncomingMessage;
  url: URL;
  principal: Principal;
}

const WRITES = new Set<CoreAction>(['create', 'update']);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** what project code's own `strapi.documents()` calls run as: server code, with full access as in Strapi */
const SERVER_CALLER = createTokenPrincipal('project code', 'full-access', new Set());
const SERVER_HEAD: RequestHead = { method: 'POST', rawHeaders: [], headers: {} };
const SERVER_URL = new URL('http://folio.internal/api');

/**
 * A core action Shadow CRUD switched off, called by project code in a way start-up could not see
 * (`strapi.documents(uid)`, a computed name). Strapi's Shadow CRUD shapes GraphQL alone, so there the
 * call runs; Folio runs a core action through its GraphQL operation, which is gone. Strapi's
 * NotImplementedError (501): the server lacks what the code asks for. Not a 405: the route's own
 * method is served on its path, so no `Allow` could name what the client should do instead. Not a
 * 500: nothing failed, the project switched the action off.
 */
const unservedActionError = (contentType: ContentType, action: CoreAction) =>
  new NotImplementedError(`The ${action} action of ${contentType.uid} is switched off by the Shadow CRUD configuration: Folio runs a core action through its GraphQL operation, so project code cannot call it`, {
    uid: contentType.uid,
    action,
  });

const needsDocumentId = (contentType: ContentType, action: CoreAction) => contentType.kind === 'collectionType' && (action === 'findOne' || action === 'update' || action === 'delete');

const paramsOf = (segments: readonly PathSegment[], parts: readonly string[]): Record<string, string> | undefined => {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of segments.entries()) {
    if ('literal' in segment) {
      if (segment.literal !== parts[index]) return undefined;
      continue;
    }
    try {
      params[segment.param] = decodeURIComponent(parts[index]);
    } catch {
      return undefined;
    }
  }
  return params;
};

/** Strapi's `ctx.state`: who is calling, as its users-permissions strategy records it (nobody on an `auth: false` route). */
const stateOf = (route: ProjectRoute, principal: Principal): Record<string, unknown> => {
  const info = { method: route.method, path: route.path, handler: route.permission, info: { apiName: route.contentType.apiName, type: 'content-api' } };
  if (route.public) return { route: info };
  const strategy = { name: principal.kind === 'api-token' ? 'api-token' : 'users-permissions' };
  const credentials = principal.kind === 'api-token' ? { name: principal.tokenName, type: principal.role } : (principal.user ?? null);
  return { route: info, user: principal.user, auth: { strategy, credentials }, isAuthenticated: true };
};

/** `projectRoutes`: the table's routes whose action the schema serves; `routes`: the content routes, for the core actions */
export const createProjectRouteHandler = (runtime: Runtime, projectRoutes: readonly ProjectRouteOperation[], routes: ContentRoutes): HttpRoute => {
  const { config, models } = runtime.services;
  const { maxResponseBytes } = config.graphql;

  /** A core action's answer; a refusal, of its query, its body or its operation, is thrown as Strapi's error class of its name. */
  const runCore = async (head: RequestHead, url: URL, operation: RouteOperation, contentType: ContentType, query: Record<string, unknown>, call: { documentId?: string; body?: unknown; principal: Principal; v4: boolean; strict: boolean }): Promise<Exclude<CoreReply, { kind: 'error' }>> => {
    let reply: CoreReply;
    try {
      const parsed = parseBuiltQuery(query, parametersOf(operation), call.strict);
      const body = call.body === undefined ? undefined : Promise.resolve(call.body);
      const outcome = await runtime.rest.run(head, url, { operation, contentType, query: parsed, documentId: call.documentId, body, principal: call.principal, v4: call.v4 });
      reply = coreReplyOf(operation, outcome, call.v4);
    } catch (error) {
      // the query and the body are refused before the operation runs, with the errors it raises
      if (!(error instanceof GraphQLError)) throw error;
      reply = { kind: 'error', error: errorBodyOf(error) };
    }
    if (reply.kind === 'error') throw coreActionError(reply.error);
    return reply;
  };

  const coreCall: CoreCall = async (contentType, action, query, { documentId, body } = {}) => {
    const operation = routes.operationOf(contentType, action);
    if (!operation) throw unservedActionError(contentType, action);
    const reply = await runCore(SERVER_HEAD, SERVER_URL, operation, contentType, query, { documentId, body, principal: SERVER_CALLER, v4: false, strict: true });
    return reply.kind === 'body' ? reply.body : { data: null, meta: {} };
  };
  const strapi = createStrapiFacade(models, coreCall, createStrapiLog(config.env === 'production'), config.rest.maxLimit);
  runtime.projectRoutes?.bindStrapi(strapi);

  const scopes = new WeakMap<object, RequestScope>();

  const runAction: CoreActionRunner = async (ctx, contentType, action) => {
    const scope = scopes.get(ctx);
    if (!scope) throw new Error(`${contentType.uid} ${action}: a core action runs on the ctx of the request it serves`);
    const operation = routes.operationOf(contentType, action);
    if (!operation) throw unservedActionError(contentType, action);
    const id = ctx.params.id;
    if (needsDocumentId(contentType, action) && (typeof id !== 'string' || id === '')) throw coreActionError(errorBody(notFoundError()));
    // a route's permission admits what its controller runs, as in Strapi (relations keep their own checks)
    const permission = permissionFor(contentType, action);
    const principal = scope.principal.can(permission) ? scope.principal : withPermission(scope.principal, permission);
    const reply = await runCore(scope.request, scope.url, operation, contentType, ctx.query, {
      documentId: needsDocumentId(contentType, action) ? id : undefined,
      body: WRITES.has(action) ? ctx.request.body : undefined,
      principal,
      v4: isV4(scope.request),
      strict: config.rest.strictQuery,
    });
    ctx.status = reply.status;
    return reply.kind === 'body' ? reply.body : undefined;
  };
  const isServed = (contentType: ContentType, action: CoreAction) => routes.operationOf(contentType, action) !== undefined;
  const controllerHandler = createProjectControllers(models, strapi, runAction, isServed);

  /** A route's policies and middlewares calling, in their own code, a core action Shadow CRUD switched off (see document-calls). */
  const switchedOffInChain = (route: ProjectRoute): ProjectCodeProblem[] => {
    const named = (kind: string, name: string) => (name === 'inline' ? `the inline ${kind} of ${route.method} ${route.path}` : `the ${kind} "${name}"`);
    const callers = [
      ...route.policies.map((policy) => ({ file: policy.file, caller: named('policy', policy.name), code: codeOf(policy.handler) })),
      ...route.middlewares.map((middleware) => ({ file: middleware.file, caller: named('middleware', middleware.name), code: codeOf('handler' in middleware ? middleware.handler : middleware.factory) })),
    ];
    return callers.flatMap(({ file, caller, code }) =>
      documentCalls(code, models)
        .filter((call) => !isServed(call.contentType, call.action))
        .map((call) => ({ file, message: switchedOffCallMessage(caller, call) })),
    );
  };

  /** The route's handler as Strapi's last step runs it: what it returns is the body unless it set one. */
  const handlerStep = (route: ProjectRoute): ChainStep => {
    const { contentType, action, controller } = route;
    const handle: ControllerHandler | undefined = controller ? controllerHandler(controller, contentType) : action && ((ctx) => runAction(ctx, contentType, action));
    if (!handle) throw new Error(`${route.file}: ${route.method} ${route.path} runs nothing`);
    return {
      file: controller?.file ?? 'the core action',
      async run(ctx) {
        const value = await handle(ctx);
        if ((ctx.body === undefined || ctx.body === null) && value !== undefined && value !== null) ctx.body = value;
      },
    };
  };

  // every route's problems at once, each once (routes may share an action)
  const problems = new Map<string, ProjectCodeProblem>();
  const served: ServedRoute[] = projectRoutes.flatMap(({ route }) => {
    for (const problem of switchedOffInChain(route)) problems.set(`${problem.file}: ${problem.message}`, problem);
    try {
      return [{ route, steps: [...route.policies.map((policy) => policyStep(policy, strapi)), ...route.middlewares.map((middleware) => middlewareStep(middleware, strapi)), handlerStep(route)] }];
    } catch (error) {
      if (!(error instanceof ProjectCodeError)) throw error;
      for (const problem of error.problems) problems.set(`${problem.file}: ${problem.message}`, problem);
      return [];
    }
  });
  if (problems.size > 0) throw new ProjectCodeError([...problems.values()]);

  /** `allow`: the path's other methods, what a 405 the route's code throws names (the code refuses the route's own) */
  const serve = async (request: IncomingMessage, response: ServerResponse, url: URL, hit: ServedRoute, params: Record<string, string>, allow: string) => {
    const { route } = hit;
    const { permission } = route;
    const reading = BODY_METHODS.has(route.method) ? readJsonBody(request, config.rest.bodyLimit) : undefined;
    if (reading) reading.catch(() => undefined); // settled below, unless the caller is refused first
    else drainBody(request);
    const principal = route.public
      ? withPermission(await runtime.authenticator.authenticate(null), permission)
      : await runtime.authenticator.authenticate(request.headers.authorization ?? null);
    // Strapi's authorize step, before any policy: the caller needs the action's own permission
    if (!principal.can(permission)) throw forbiddenError('Forbidden');
    const body = reading ? await reading : {};
    const ctx = createKoaContext({
      method: request.method ?? 'GET',
      url: `${url.pathname}${url.search}`,
      path: url.pathname,
      headers: request.headers,
      query: parseQueryObject(url.search),
      params,
      body,
      state: stateOf(route, principal),
    });
    scopes.set(ctx, { request, url, principal });
    const origins = new WeakMap<object, string>();
    try {
      await runChain(hit.steps, ctx, origins);
    } catch (error) {
      const answer = projectErrorBody(error, typeof error === 'object' && error !== null ? origins.get(error) : undefined);
      // Strapi's errors middleware answers in ctx, as any answer: what `ctx.set` gave before the throw is kept
      return sendError(response, answer, { ...ctx.responseHeaders, ...(answer.status === 405 ? { allow } : {}) });
    }
    sendProjectAnswer(request, response, ctx, maxResponseBytes);
  };

  return async (request, response, url) => {
    const parts = url.pathname.split('/').filter(Boolean);
    const matches = served.flatMap((hit) => {
      const params = paramsOf(hit.route.segments, parts);
      return params ? [{ hit, params }] : [];
    });
    if (matches.length === 0) return false;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const found = matches.find(({ hit }) => hit.route.method === method);
    const methods = [...new Set(matches.map(({ hit }) => hit.route.method))];
    try {
      if (!found) {
        drainBody(request);
        sendError(response, errorBody(methodNotAllowedError()), { allow: methods.join(', ') });
      } else {
        await serve(request, response, url, found.hit, found.params, methods.filter((other) => other !== method).join(', '));
      }
    } catch (error) {
      sendError(response, projectErrorBody(error, undefined));
    }
    return true;
  };
};
