import type { ExecutionResult } from 'graphql';
import type { GraphQLSchema } from 'graphql';
import type { Services } from '../context';
import type { GraphqlServer } from '../graphql/create-graphql-server';
import type { ContentType } from '../models/types';
import type { RouteOperation } from './content-routes';
import { createOwnerViews, type OwnerView } from './owner-views';
import { createRestFilterConverter } from './rest-filters';
import { createPopulateParser } from './parse-populate';
import type { RestQuery } from './parse-query-string';
import { parseRestSort } from './rest-sort';
import { parseRestPagination, type RestPagination } from './rest-pagination';
import { parseHasPublishedVersion, parseLocale, parsePublicationFilter, parsePublicationState, parseStatus } from './rest-scope';
import { takePublishedAt } from './published-at';
import { createSearchFilter } from './search-filter';
import { dataOfBody } from './check-body-data';
import { splitRelationWrites } from './split-relation-writes';
import { rootArgumentsOf, operationText } from './operation-text';
import { selectionKey, selectionVariables } from './selection-plan';
import { createShaper, type Shaper } from './shape-document';
import { createV4Converter, type V4Converter } from './to-v4-format';
import { createOperationRunner, type CompiledOperation } from './run-operation';
import { createFetchRequest, type RequestHead } from '../graphql/fetch-request';
import type { PaginationLimits } from '../query/parse-pagination';
import type { Selection } from './selection';
import type { Principal } from '../auth/principal';
import type { Authenticator } from '../auth/authenticate';
import { maySelectField } from '../graphql/plugins/use-authorization';
import { forbiddenError } from '../errors/graphql-errors';

/**
 * The one REST front: a route's operation and the request's parsed query (and body) → variables
 * and a compiled GraphQL operation (cached by shape) → the `/graphql` pipeline. Content routes,
 * `/api/users` and every other REST route reading documents go through here, so they share the
 * query model, permissions, limits and errors.
 */

export interface Shapers {
  shape: Shaper;
  toV4: V4Converter;
}

export interface RestCall {
  operation: RouteOperation;
  contentType: ContentType;
  query: RestQuery;
  documentId?: string;
  /** a condition the route adds to the client's filters (`/api/users/:id`: the id) */
  filter?: Record<string, unknown>;
  /** the route's page limits: REST's (`api.rest`) unless it lists otherwise */
  limits?: PaginationLimits;
  /** the request body of a write, being read */
  body?: Promise<unknown>;
  /** the caller, when the route settled it (project routes); else the request's credentials decide */
  principal?: Principal;
  /** Strapi v4's answer format; else as the request's `Strapi-Response-Format` asks */
  v4?: boolean;
}

export interface RestOutcome {
  result: ExecutionResult;
  compiled?: CompiledOperation<Shapers>;
  pagination?: RestPagination;
}

export const isV4 = (request: RequestHead) => String(request.headers['strapi-response-format'] ?? '').toLowerCase() === 'v4';

const and = (left: Record<string, unknown> | undefined, right: Record<string, unknown> | undefined) =>
  left && right ? { and: [left, right] } : (left ?? right);

export interface RestCallsOptions {
  services: Services;
  schema: GraphQLSchema;
  graphql: GraphqlServer;
  authenticator: Authenticator;
}

export const createRestCalls = ({ services, schema, graphql, authenticator }: RestCallsOptions) => {
  const { models, config } = services;
  const views = createOwnerViews(models, schema);
  const filters = createRestFilterConverter(schema);
  const populate = createPopulateParser(views, filters, config.rest.maxPopulateDepth);
  const runner = createOperationRunner<Shapers>(graphql, config.rest);
  const toFetchRequest = createFetchRequest(graphql.fetchAPI);
  const searches = new Map<string, ReturnType<typeof createSearchFilter>>();
  const viewOf = (contentType: ContentType): OwnerView => views.get(contentType.uid) as OwnerView;
  const searchOf = (view: OwnerView) => {
    let search = searches.get(view.key);
    if (!search) searches.set(view.key, (search = createSearchFilter(schema, view)));
    return search;
  };

  /** A list's `filters` and `_q` as its `filters` argument (the aggregation's too: aggregation-calls). */
  const filtersOf = (view: OwnerView, query: RestQuery): Record<string, unknown> | undefined => {
    const converted = query.filters === undefined ? undefined : filters.convert(view.filtersInput, query.filters);
    const search = query._q === undefined ? undefined : searchOf(view)(query._q);
    return and(converted, search);
  };

  /** The list arguments: filters (with `_q` and the route's own), sort (a related document's field too), pagination. */
  const listArguments = (view: OwnerView, call: RestCall, v4: boolean) => {
    const { query } = call;
    return {
      filters: and(filtersOf(view, query), call.filter),
      sort: parseRestSort(query.sort),
      pagination: parseRestPagination(query.pagination, call.limits ?? config.rest, v4),
    };
  };

  return {
    /** The `filters` argument a list route's `filters` and `_q` make, the search built once per type. */
    listFilters: (contentType: ContentType, query: RestQuery): Record<string, unknown> | undefined => filtersOf(viewOf(contentType), query),

    async run(request: RequestHead, url: URL, call: RestCall): Promise<RestOutcome> {
      const { operation, query } = call;
      const v4 = call.v4 ?? isV4(request);
      const view = viewOf(call.contentType);
      const selection: Selection = operation.action === 'delete' ? { view, populate: new Map() } : populate.parse(view, query.fields, query.populate);
      const list = operation.list ? listArguments(view, call, v4) : undefined;
      const values: Record<string, unknown> = {
        documentId: call.documentId,
        status: parseStatus(query.status) ?? (v4 ? parsePublicationState(query.publicationState) : undefined),
        publicationFilter: parsePublicationFilter(query.publicationFilter),
        hasPublishedVersion: parseHasPublishedVersion(query.hasPublishedVersion),
        locale: operation.action === 'delete' && query.locale === '*' ? undefined : parseLocale(query.locale),
        filters: list?.filters,
        sort: list?.sort,
        pagination: list?.pagination.argument,
      };
      const dataArgument = operation.field.args.find((arg) => arg.name === 'data');
      let principal = call.principal;
      if (call.body && dataArgument) {
        // The caller first: a body's data costs its validation (up to the body limit), which a caller who may not write must not get.
        principal ??= await authenticator.authenticate(request.headers.authorization ?? null);
        if (!maySelectField(operation.field, principal, true)) throw forbiddenError('Forbidden access');
        const written = takePublishedAt(await call.body, v4);
        const takesRelations = operation.field.args.some((arg) => arg.name === 'relations');
        const mode = operation.action === 'create' ? 'create' : 'update';
        const check = (given: Record<string, unknown>) => services.documents.validateInput(call.contentType, given, mode);
        values.data = dataOfBody(written.body, dataArgument.type, check, (given) => {
          if (!takesRelations) return given;
          const split = splitRelationWrites(models, call.contentType.attributes, given);
          if (split.relations.length > 0) values.relations = split.relations;
          return split.data;
        });
        values.status ??= written.status;
      }
      const variables: Record<string, unknown> = {};
      for (const name of rootArgumentsOf(operation)) if (values[name] !== undefined) variables[name] = values[name];
      for (const [index, variable] of selectionVariables(selection).entries()) variables[`p${index}`] = variable.value;
      const withCount = list?.pagination.withCount ?? false;
      const key = `${operation.field.name}|${withCount ? 'count' : ''}|${operation.action === 'delete' ? '' : selectionKey(selection)}`;
      const { result, compiled } = await runner.run(
        toFetchRequest(request, url),
        key,
        () => ({ source: operationText(operation, selection, withCount), extra: { shape: createShaper(selection), toV4: createV4Converter(selection) } }),
        variables,
        principal,
      );
      return { result, compiled, pagination: list?.pagination };
    },
  };
};

export type RestCalls = ReturnType<typeof createRestCalls>;
