import type { ContentType, Models } from '../models/types';
import { isRecord } from '../common/is-record';
import type { CoreAction } from './strapi-packages';

/**
 * `factories.createCoreRouter(uid, options)` as Strapi 5 makes it (strapi/strapi
 * packages/core/core/src/factories.ts, core-api/routes): `{ type, prefix, routes }`, `routes` a
 * getter building the content-type's core routes once, each `{ method, path, handler:
 * '<uid>.<action>', config }` with `config.<action>` of the options, less those `except` names or
 * outside `only`. Project files read and extend it as Strapi's (a router concatenating its own
 * routes to the core ones); project-routes serves what its `routes` holds in the end.
 *
 * Unlike Strapi, a wrong uid or option throws at the call, so the file making it is named at start.
 */

export interface CoreRoute {
  method: string;
  path: string;
  handler: string;
  config: unknown;
}

export interface CoreRouter {
  type: unknown;
  prefix: unknown;
  readonly routes: CoreRoute[];
}

const COLLECTION_ACTIONS: readonly CoreAction[] = ['find', 'findOne', 'create', 'update', 'delete'];
const SINGLE_ACTIONS: readonly CoreAction[] = ['find', 'update', 'delete'];

export const coreActionsOf = (contentType: ContentType): readonly CoreAction[] => (contentType.kind === 'collectionType' ? COLLECTION_ACTIONS : SINGLE_ACTIONS);

/** The method and path of a core route, as Strapi's `createRoutes` makes them. */
export const coreRouteOf = (contentType: ContentType, action: CoreAction): { method: string; path: string } => {
  if (contentType.kind === 'singleType') return { method: action === 'find' ? 'GET' : action === 'update' ? 'PUT' : 'DELETE', path: `/${contentType.singularName}` };
  const base = `/${contentType.pluralName}`;
  if (action === 'find') return { method: 'GET', path: base };
  if (action === 'create') return { method: 'POST', path: base };
  return { method: action === 'findOne' ? 'GET' : action === 'update' ? 'PUT' : 'DELETE', path: `${base}/:id` };
};

/** A value as a message quotes it. */
export const describeValue = (value: unknown) => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value) ?? String(value));

/**
 * `warn`: one line per name in `only`, `except` or `config` that is not a core action of the type,
 * which Strapi ignores silently though it is likely a mistake. The factory is made per project file
 * (`file`, named in those lines), as each file requiring `@strapi/strapi` gets its own.
 */
export const coreRouterFactory = (models: Models, warn: (line: string) => void) => (file: string) => (uid: unknown, options: unknown = {}): CoreRouter => {
  const contentType = typeof uid === 'string' ? models.contentTypes.get(uid) : undefined;
  if (!contentType || !contentType.uid.startsWith('api::')) throw new Error(`createCoreRouter: ${describeValue(uid)} is not a content-type of the project`);
  if (!isRecord(options)) throw new Error('the options of createCoreRouter must be an object');
  const known = coreActionsOf(contentType);
  /** The core actions an option names; others are ignored, as Strapi ignores them. */
  const actionNames = (value: unknown, option: string): CoreAction[] | undefined => {
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) throw new Error(`${option} must be an array of core actions (${known.join(', ')})`);
    for (const name of value.filter((candidate) => !known.includes(candidate as CoreAction))) {
      warn(`folio: ${file}: ${option} names ${describeValue(name)}, not a core action of ${contentType.uid} (${known.join(', ')}): ignored, as Strapi ignores it`);
    }
    return value.filter((name): name is CoreAction => known.includes(name as CoreAction));
  };
  const { prefix, type = 'content-api', config = {} } = options;
  const only = actionNames(options.only, 'only');
  const except = actionNames(options.except, 'except') ?? [];
  if (!isRecord(config)) throw new Error('config must be an object of per-action settings');
  actionNames(Object.keys(config), 'config');
  let routes: CoreRoute[] | undefined;
  return {
    type,
    prefix,
    get routes() {
      // one array, as Strapi's getter keeps it: code that changes a route's config changes what is served
      routes ??= known
        .filter((action) => !except.includes(action) && (!only || only.includes(action)))
        .map((action) => ({ ...coreRouteOf(contentType, action), handler: `${contentType.uid}.${action}`, config: config[action] ?? {} }));
      return routes;
    },
  };
};
