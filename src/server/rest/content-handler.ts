import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExecutionResult } from 'graphql';
import type { Runtime } from '../folio-module';
import type { ContentType } from '../../models/types';
import type { ContentRoutes, HttpMethod, RouteOperation } from '../../rest/content-routes';
import { createOwnerViews, type OwnerView } from '../../rest/owner-views';
import { createRestFilterConverter } from '../../rest/rest-filters';
import { createPopulateParser } from '../../rest/parse-populate';
import { parseQueryString, QUERY_PARAMETERS, type QueryParameter, type RestQuery } from '../../rest/parse-query-string';
import { parseRestSort } from '../../rest/rest-sort';
import { parseRestPagination, type RestPagination } from '../../rest/rest-pagination';
import { parseHasPublishedVersion, parseLocale, parsePublicationFilter, parsePublicationState, parseStatus } from '../../rest/rest-scope';
import { takePublishedAt } from '../../rest/published-at';
import { createSearchFilter } from '../../rest/search-filter';
import { dataOfBody } from './check-body-data';
import { rootArgumentsOf, operationText } from '../../rest/operation-text';
import { selectionKey, selectionVariables } from '../../rest/selection-plan';
import { createShaper, type Document, type Shaper } from '../../rest/shape-document';
import { createV4Converter, type V4Converter } from '../../rest/to-v4-format';
import { createOperationRunner, type CompiledOperation } from '../../rest/run-operation';
import { errorBodyOf } from './rest-error';
import { errorBody } from '../error-envelope';
import { methodNotAllowedError, notFoundError } from '../../errors/graphql-errors';
import { createFetchRequest } from '../fetch-request';
import { drainBody, readJsonBody, sendEmpty, sendError, sendJsonWithin } from '../http-json';
import type { Selection } from '../../rest/selection';

/**
 * One content-API request: route, query string and body → variables and a compiled GraphQL
 * operation (cached by shape) → the pipeline → Strapi's REST envelope.
 */

interface Connection {
  nodes: Document[];
  pageInfo?: { total: number };
}

interface Shapers {
  shape: Shaper;
  toV4: V4Converter;
}

const LIST_PARAMETERS = new Set<QueryParameter>(QUERY_PARAMETERS);
const DOCUMENT_PARAMETERS = new Set<QueryParameter>(['fields', 'populate', 'status', 'locale', 'publicationFilter', 'hasPublishedVersion', 'publicationState']);
const DELETE_PARAMETERS = new Set<QueryParameter>(['locale']);

const parametersOf = (operation: RouteOperation): ReadonlySet<QueryParameter> =>
  operation.list ? LIST_PARAMETERS : operation.action === 'delete' ? DELETE_PARAMETERS : DOCUMENT_PARAMETERS;

const isV4 = (request: IncomingMessage) => String(request.headers['strapi-response-format'] ?? '').toLowerCase() === 'v4';

const and = (left: Record<string, unknown> | undefined, right: Record<string, unknown> | undefined) =>
  left && right ? { and: [left, right] } : (left ?? right);

export const createContentHandler = ({ services, schema, graphql }: Runtime, routes: ContentRoutes) => {
  const { models, config } = services;
  const { maxResponseBytes } = config.graphql;
  const views = createOwnerViews(models, schema);
  const filters = createRestFilterConverter(schema);
  const populate = createPopulateParser(views, filters);
  const runner = createOperationRunner<Shapers>(graphql, config.rest);
  const toFetchRequest = createFetchRequest(graphql.fetchAPI);
  const searches = new Map<string, ReturnType<typeof createSearchFilter>>();
  const viewOf = (contentType: ContentType): OwnerView => views.get(contentType.uid) as OwnerView;
  const searchOf = (view: OwnerView) => {
    let search = searches.get(view.key);
    if (!search) searches.set(view.key, (search = createSearchFilter(schema, view)));
    return search;
  };

  /** The list arguments: filters (with `_q`), sort (a related document's field too), pagination. */
  const listArguments = (view: OwnerView, query: RestQuery) => {
    const converted = query.filters === undefined ? undefined : filters.convert(view.filtersInput, query.filters);
    const search = query._q === undefined ? undefined : searchOf(view)(query._q);
    return {
      filters: and(converted, search),
      sort: parseRestSort(query.sort),
      pagination: parseRestPagination(query.pagination, config.rest),
    };
  };

  const respond = (
    request: IncomingMessage,
    response: ServerResponse,
    operation: RouteOperation,
    result: ExecutionResult,
    compiled: CompiledOperation<Shapers> | undefined,
    pagination: RestPagination | undefined,
  ) => {
    const error = result.errors?.[0];
    // Deleting what is not there answers 204, as Strapi 5.54 does: DELETE is idempotent.
    if (operation.action === 'delete' && (!error || error.extensions?.code === 'NOT_FOUND')) return sendEmpty(response, 204);
    if (error || !compiled) return sendError(response, errorBodyOf(error));
    const value = result.data?.data ?? null;
    if (value === null) return sendError(response, errorBody(notFoundError()));
    const { shape, toV4 } = compiled.extra;
    const v4 = isV4(request);
    if (operation.list && pagination) {
      const { nodes, pageInfo } = value as Connection;
      const documents = nodes.map(shape);
      return sendJsonWithin(response, maxResponseBytes, 200, { data: v4 ? documents.map(toV4) : documents, meta: { pagination: pagination.meta(pageInfo?.total) } });
    }
    const document = shape(value as Document);
    return sendJsonWithin(response, maxResponseBytes, operation.action === 'create' ? 201 : 200, { data: v4 ? toV4(document) : document, meta: {} });
  };

  const handle = async (request: IncomingMessage, response: ServerResponse, url: URL, operations: Map<HttpMethod, RouteOperation>, contentType: ContentType, documentId?: string) => {
    const method = (request.method === 'HEAD' ? 'GET' : request.method) as HttpMethod;
    const operation = operations.get(method);
    if (!operation) {
      drainBody(request);
      return sendError(response, errorBody(methodNotAllowedError()), { allow: [...operations.keys()].join(', ') });
    }
    const writes = operation.action === 'create' || operation.action === 'update';
    const body = writes ? readJsonBody(request, config.rest.bodyLimit) : undefined;
    if (body) body.catch(() => undefined); // read alongside the query: a rejected query must not leave it unhandled
    else drainBody(request);
    const v4 = isV4(request);
    const query = parseQueryString(url.search, parametersOf(operation), config.rest.strictQuery);
    const view = viewOf(contentType);
    const selection: Selection = operation.action === 'delete' ? { view, populate: new Map() } : populate.parse(view, query.fields, query.populate);
    const list = operation.list ? listArguments(view, query) : undefined;
    const values: Record<string, unknown> = {
      documentId,
      status: parseStatus(query.status) ?? (v4 ? parsePublicationState(query.publicationState) : undefined),
      publicationFilter: parsePublicationFilter(query.publicationFilter),
      hasPublishedVersion: parseHasPublishedVersion(query.hasPublishedVersion),
      locale: operation.action === 'delete' && query.locale === '*' ? undefined : parseLocale(query.locale),
      filters: list?.filters,
      sort: list?.sort,
      pagination: list?.pagination.argument,
    };
    const dataArgument = operation.field.args.find((arg) => arg.name === 'data');
    if (body && dataArgument) {
      const written = takePublishedAt(await body, v4);
      values.data = dataOfBody(written.body, dataArgument.type);
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
    );
    respond(request, response, operation, result, compiled, list?.pagination);
  };

  return async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> => {
    const match = routes.match(url.pathname);
    if (!match) return false;
    try {
      await handle(request, response, url, match.operations, match.route.contentType, match.documentId);
    } catch (error) {
      sendError(response, errorBodyOf(error));
    }
    return true;
  };
};
