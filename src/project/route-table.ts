import type { ContentType, Models } from '../models/types';
import { isRecord } from '../common/is-record';
import { permissionFor } from '../sdl/naming';
import type { LoadedController, ProjectCode } from './load-project-code';
import type { CoreAction } from './strapi-packages';
import { coreActionsOf, coreRouteOf, describeValue as describe } from './core-router';
import { ProjectCodeError, type ProjectCodeProblem } from './project-code-error';

/**
 * A project's routers resolved against its models into one route table: each router's `routes`
 * (a core router's, see core-router, or any `{ type, prefix, routes }`) mapped to the action its
 * `handler` names, a core action (with the core router's own routes) or a custom controller's, and
 * every policy and middleware a route names found. What cannot be served is refused here, at start,
 * naming the route file: an action its controller lacks, an unknown policy or middleware, `auth`
 * other than `false`, a path two routes both claim.
 *
 * APIs without a `routes` folder are not in the table: Folio serves their content-types' core routes
 * as a default core router would.
 */

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type PathSegment = { literal: string } | { param: string };

export type PolicyHandler = (policyContext: object, config: unknown, dependencies: { strapi: object }) => unknown;
export type MiddlewareHandler = (ctx: object, next: () => Promise<void>) => unknown;
export type MiddlewareFactory = (config: unknown, dependencies: { strapi: object }) => MiddlewareHandler | undefined;

export interface RoutePolicy {
  /** as the route names it, or `inline` */
  name: string;
  /** where it is written */
  file: string;
  handler: PolicyHandler;
  config: unknown;
}

export type RouteMiddleware = { name: string; file: string } & ({ factory: MiddlewareFactory; config: unknown } | { handler: MiddlewareHandler });

/** An action of a controller with actions of its own (`createCoreController(uid, actions)`), which the route runs. */
export interface ControllerAction {
  /** the controller's uid, `api::<api>.<file name>` */
  uid: string;
  file: string;
  /** `createCoreController`'s second argument */
  custom: unknown;
  name: string;
}

/** What a route runs: a core action of a content-type, or a custom controller's action (its own, or its override of a core one). */
interface RouteTarget {
  contentType: ContentType;
  /** the core action run or overridden; undefined for an action of the controller's own */
  action: CoreAction | undefined;
  controller?: ControllerAction;
  /** what the caller needs, as Strapi scopes the route: the content-type's action, or `<controller uid>.<action>` */
  permission: string;
}

export interface ProjectRoute extends RouteTarget {
  /** the route file */
  file: string;
  method: RouteMethod;
  /** the full path, `/api/...`, as written */
  path: string;
  segments: PathSegment[];
  /** not one of the content-type's core routes (the method and path createCoreRouter gives its action) */
  custom: boolean;
  /** `config.auth: false`: the action is open to anyone on this route */
  public: boolean;
  policies: RoutePolicy[];
  middlewares: RouteMiddleware[];
}

export interface ProjectRouteTable {
  routes: ProjectRoute[];
  /** APIs whose routes come from their files: their content-types have no other REST routes */
  apis: ReadonlySet<string>;
  /** what routes to custom controller actions check, which no schema field requires: roles may grant them */
  permissions: readonly string[];
  /** makes the project files' global `strapi` Folio's (the one their policies and middlewares get) */
  bindStrapi(strapi: object): void;
}

const API_PREFIX = '/api';
const METHODS = new Set<string>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const NOT_A_ROUTER = 'a router exports createCoreRouter(...) or { routes: [...] }';

class RouteProblem extends Error {}

const segmentsOf = (path: string): PathSegment[] =>
  path
    .split('/')
    .filter(Boolean)
    .map((part) => {
      if (/^:[A-Za-z_$][\w$]*$/.test(part)) return { param: part.slice(1) };
      if (/^[\w\-.~]+$/.test(part)) return { literal: part };
      throw new RouteProblem(`path "${path}": the segment "${part}" is not served (Folio reads literal segments and :name parameters, not optional, wildcard or regular-expression ones)`);
    });

/** A policy or middleware named as a string or `{ name, config }`. */
const referenceOf = (entry: unknown, kind: string, otherwise: string): { name: string; config: unknown } => {
  if (typeof entry === 'string') return { name: entry, config: {} };
  if (isRecord(entry) && typeof entry.name === 'string') return { name: entry.name, config: entry.config ?? {} };
  throw new RouteProblem(`the ${kind} ${describe(entry)} is neither a name, { name, config } nor a function${otherwise}`);
};

export const resolveProjectRoutes = (code: ProjectCode, models: Models): ProjectRouteTable => {
  const problems: ProjectCodeProblem[] = [];
  const routes: ProjectRoute[] = [];

  const policyOf = (entry: unknown, apiName: string, file: string): RoutePolicy => {
    if (typeof entry === 'function') return { name: 'inline', file, handler: entry as PolicyHandler, config: {} };
    const { name, config } = referenceOf(entry, 'policy', '');
    // Strapi's lookup: the full name, then the name inside the route's own API
    const loaded = code.policies.get(name) ?? (name.includes('::') ? undefined : code.policies.get(`api::${apiName}.${name}`));
    if (!loaded) throw new RouteProblem(`the policy "${name}" is not one of the project's (${[...code.policies.keys()].join(', ') || 'none'}); Folio runs the project's own policies only`);
    const { value } = loaded;
    if (typeof value === 'function') return { name, file: loaded.file, handler: value as PolicyHandler, config };
    if (isRecord(value) && typeof value.handler === 'function') {
      if (typeof value.validator === 'function') (value.validator as (config: unknown) => void)(config);
      return { name, file: loaded.file, handler: value.handler as PolicyHandler, config };
    }
    throw new RouteProblem(`the policy "${name}" (${loaded.file}) exports neither a function nor { handler }`);
  };

  const middlewareOf = (entry: unknown, file: string): RouteMiddleware => {
    if (typeof entry === 'function') return { name: 'inline', file, handler: entry as MiddlewareHandler };
    const { name, config } = referenceOf(entry, 'middleware', ' (a { resolve } path is not served)');
    const loaded = code.middlewares.get(name);
    if (!loaded) throw new RouteProblem(`the middleware "${name}" is not one of the project's (${[...code.middlewares.keys()].join(', ') || 'none'}); Folio runs the project's own middlewares only, named api::<api>.<name> or global::<name>`);
    if (typeof loaded.value !== 'function') throw new RouteProblem(`the middleware "${name}" (${loaded.file}) does not export a function (config, { strapi }) => async (ctx, next) => {}`);
    return { name, file: loaded.file, factory: loaded.value as MiddlewareFactory, config };
  };

  const listOf = (value: unknown, what: string): unknown[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new RouteProblem(`config.${what} must be an array`);
    return value;
  };

  const add = (file: string, apiName: string, method: unknown, path: unknown, prefix: string, target: RouteTarget, config: unknown) => {
    if (typeof method !== 'string' || !METHODS.has(method.toUpperCase())) throw new RouteProblem(`method ${describe(method)} is not served (GET, POST, PUT, PATCH, DELETE)`);
    if (typeof path !== 'string' || !path.startsWith('/')) throw new RouteProblem(`path ${describe(path)} must be a string starting with /`);
    if (config !== undefined && !isRecord(config)) throw new RouteProblem(`the config of ${method} ${path} must be an object`);
    // what else a config holds (a description for the documentation plugin) changes nothing in Strapi either
    const settings = config ?? {};
    if (settings.auth !== undefined && settings.auth !== false) {
      throw new RouteProblem(`config.auth of ${method} ${path} is ${describe(settings.auth)}: Folio serves auth: false (public) or none (the caller needs the action's own permission, ${target.permission}); check other conditions with a policy`);
    }
    // a route with its own `config.prefix` is outside its router's prefix, as in Strapi
    const full = `${API_PREFIX}${'prefix' in settings ? '' : prefix}${path}`.replace(/\/+$/, '') || API_PREFIX;
    const core = target.action ? coreRouteOf(target.contentType, target.action) : undefined;
    routes.push({
      file,
      method: method.toUpperCase() as RouteMethod,
      path: full,
      segments: segmentsOf(full),
      ...target,
      custom: core?.method !== method.toUpperCase() || core.path !== path,
      public: settings.auth === false,
      policies: listOf(settings.policies, 'policies').map((entry) => policyOf(entry, apiName, file)),
      middlewares: listOf(settings.middlewares, 'middlewares').map((entry) => middlewareOf(entry, file)),
    });
  };

  /** `restaurant.find` (a controller of the route's API) or `api::restaurant.restaurant.find`. */
  const handlerOf = (handler: unknown, apiName: string): RouteTarget => {
    if (typeof handler !== 'string') throw new RouteProblem('a handler written as a function is not served: name a controller action (<controller>.<action>)');
    const cut = handler.lastIndexOf('.');
    const controllerName = handler.slice(0, cut);
    const action = handler.slice(cut + 1);
    const controllerUid = controllerName.includes('::') ? controllerName : `api::${apiName}.${controllerName}`;
    const controller = code.controllers.get(controllerUid);
    // a content-type without a controller file has Strapi's default one
    const contentType = models.contentTypes.get(controller?.uid ?? controllerUid);
    if (cut < 0 || !contentType || !contentType.uid.startsWith('api::')) throw new RouteProblem(`handler "${handler}" names no controller of the project's content-types`);
    if (controller?.custom === undefined && !coreActionsOf(contentType).includes(action as CoreAction)) {
      throw new RouteProblem(`handler "${handler}": "${action}" is not a core action of ${contentType.uid} (${coreActionsOf(contentType).join(', ')}), and its controller has no actions of its own`);
    }
    return targetOf(contentType, controller, controllerUid, action);
  };

  const targetOf = (contentType: ContentType, controller: LoadedController | undefined, controllerUid: string, name: string): RouteTarget => {
    const action = coreActionsOf(contentType).find((core) => core === name);
    const permission = action ? permissionFor(contentType, action) : `${controllerUid}.${name}`;
    if (controller?.custom === undefined) return { contentType, action, permission };
    return { contentType, action, permission, controller: { uid: controllerUid, file: controller.file, custom: controller.custom, name } };
  };

  /** A core router, or any object with `routes` (and `type`, `prefix`): Strapi reads them alike. */
  const addRouter = (file: string, apiName: string, router: unknown) => {
    if (!isRecord(router)) throw new RouteProblem(NOT_A_ROUTER);
    if (router.type !== undefined && router.type !== 'content-api') throw new RouteProblem(`type ${describe(router.type)}: Folio serves content-api routers only`);
    // read once: a router's `routes` may be a getter building them
    const declared = router.routes;
    if (!Array.isArray(declared)) throw new RouteProblem(NOT_A_ROUTER);
    const prefix = typeof router.prefix === 'string' ? router.prefix : '';
    for (const route of declared) {
      if (!isRecord(route)) throw new RouteProblem(`the route ${describe(route)} is not an object`);
      add(file, apiName, route.method, route.path, prefix, handlerOf(route.handler, apiName), route.config);
    }
  };

  for (const [apiName, files] of code.routers) {
    for (const { file, value } of files) {
      try {
        addRouter(file, apiName, value);
      } catch (error) {
        problems.push({ file, message: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  const claimed = new Map<string, ProjectRoute>();
  for (const route of routes) {
    // `:id` and `:slug` at one place are one path to the router
    const key = `${route.method} ${route.segments.map((segment) => ('param' in segment ? ':' : segment.literal)).join('/')}`;
    const first = claimed.get(key);
    if (first) problems.push({ file: route.file, message: `${route.method} ${route.path} is also routed by ${first.file} (${first.method} ${first.path}): one of them could never answer` });
    else claimed.set(key, route);
  }
  if (problems.length > 0) throw new ProjectCodeError(problems);
  const permissions = [...new Set(routes.flatMap((route) => (route.action ? [] : [route.permission])))];
  return { routes, apis: new Set(code.routers.keys()), permissions, bindStrapi: code.strapi.bind };
};
