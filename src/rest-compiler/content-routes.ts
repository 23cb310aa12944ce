import type { GraphQLField, GraphQLSchema } from 'graphql';
import type { ContentType, Models } from '../models/types';
import * as names from '../sdl/naming';
import type { ProjectRoute } from '../project/route-table';

/**
 * The REST routes of the content API, read off the schema's generated root fields: a route or a
 * method exists only when its root field does, so Shadow CRUD switches shape REST as they shape
 * GraphQL. Collection types: `/api/<plural>` and `/api/<plural>/:documentId`; single types:
 * `/api/<singular>`. Paths carry no version prefix.
 */

export type RouteAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteOperation {
  action: RouteAction;
  kind: 'query' | 'mutation';
  field: GraphQLField<unknown, unknown>;
  /** the list query is the connection (nodes + pageInfo) */
  list: boolean;
}

export interface ContentRoute {
  contentType: ContentType;
  /** methods of `/api/<name>` */
  base: Map<HttpMethod, RouteOperation>;
  /** methods of `/api/<name>/:documentId` (collection types) */
  document: Map<HttpMethod, RouteOperation>;
}

/** A route of the project's route files with the operation of its core action (none for a custom controller's own action). */
export interface ProjectRouteOperation {
  route: ProjectRoute;
  operation?: RouteOperation;
}

export interface RouteMatch {
  route: ContentRoute;
  operations: Map<HttpMethod, RouteOperation>;
  documentId?: string;
}

const API_PREFIX = '/api/';

export const createContentRoutes = (models: Models, schema: GraphQLSchema) => {
  const queries = schema.getQueryType()?.getFields() ?? {};
  const mutations = schema.getMutationType()?.getFields() ?? {};
  const byName = new Map<string, ContentRoute>();
  /** content-type uid → action → operation: project routes and `strapi.documents` look it up per call */
  const byAction = new Map<string, Map<RouteAction, RouteOperation>>();

  const add = (target: Map<HttpMethod, RouteOperation>, method: HttpMethod, action: RouteAction, kind: 'query' | 'mutation', fieldName: string, list = false) => {
    const field = (kind === 'query' ? queries : mutations)[fieldName];
    if (field) target.set(method, { action, kind, field, list });
  };

  for (const contentType of models.contentTypes.values()) {
    // Plugins' types (users, roles) are served by their plugins' own routes.
    if (!contentType.uid.startsWith('api::')) continue;
    const route: ContentRoute = { contentType, base: new Map(), document: new Map() };
    if (contentType.kind === 'collectionType') {
      add(route.base, 'GET', 'find', 'query', names.connectionQueryName(contentType), true);
      add(route.base, 'POST', 'create', 'mutation', names.createMutationName(contentType));
      add(route.document, 'GET', 'findOne', 'query', names.singularQueryName(contentType));
      add(route.document, 'PUT', 'update', 'mutation', names.updateMutationName(contentType));
      add(route.document, 'DELETE', 'delete', 'mutation', names.deleteMutationName(contentType));
    } else {
      add(route.base, 'GET', 'find', 'query', names.singularQueryName(contentType));
      add(route.base, 'PUT', 'update', 'mutation', names.updateMutationName(contentType));
      add(route.base, 'DELETE', 'delete', 'mutation', names.deleteMutationName(contentType));
    }
    if (route.base.size + route.document.size > 0) byName.set(contentType.kind === 'collectionType' ? contentType.pluralName : contentType.singularName, route);
    byAction.set(contentType.uid, new Map([...route.base.values(), ...route.document.values()].map((operation) => [operation.action, operation])));
  }

  const routes = [...byName.values()];
  return {
    routes,
    /** The operation of a content-type's core action; undefined when Shadow CRUD switched it off. */
    operationOf: (contentType: ContentType, action: RouteAction): RouteOperation | undefined => byAction.get(contentType.uid)?.get(action),
    /** The content route a path names, or undefined when the path is not one (others may answer it). */
    match(pathname: string): RouteMatch | undefined {
      if (!pathname.startsWith(API_PREFIX)) return undefined;
      const segments = pathname.slice(API_PREFIX.length).replace(/\/$/, '').split('/');
      const route = byName.get(segments[0]);
      if (!route || segments.length > 2) return undefined;
      if (segments.length === 1) return route.base.size > 0 ? { route, operations: route.base } : undefined;
      if (route.document.size === 0 || segments[1] === '') return undefined;
      let documentId: string;
      try {
        documentId = decodeURIComponent(segments[1]);
      } catch {
        return undefined;
      }
      return { route, operations: route.document, documentId };
    },
  };
};

export type ContentRoutes = ReturnType<typeof createContentRoutes>;
