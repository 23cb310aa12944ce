import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExecutionResult } from 'graphql';
import type { Runtime } from '../folio-module';
import type { ContentType } from '../../models/types';
import type { ContentRoutes, HttpMethod, RouteOperation } from '../../rest/content-routes';
import { parseQueryString, QUERY_PARAMETERS, type QueryParameter } from '../../rest/parse-query-string';
import type { Document } from '../../rest/shape-document';
import type { CompiledOperation } from '../../rest/run-operation';
import type { RestPagination } from '../../rest/rest-pagination';
import { isV4, type Shapers } from './rest-calls';
import { errorBodyOf } from './rest-error';
import { errorBody } from '../error-envelope';
import { methodNotAllowedError, notFoundError } from '../../errors/graphql-errors';
import { drainBody, readJsonBody, sendEmpty, sendError, sendJsonWithin, sendReadWithin } from '../http-json';

/**
 * One content-API request: route, query string and body → the REST front (rest-calls) → Strapi's
 * REST envelope.
 */

interface Connection {
  nodes: Document[];
  pageInfo?: { total: number };
}

const LIST_PARAMETERS = new Set<QueryParameter>(QUERY_PARAMETERS);
const DOCUMENT_PARAMETERS = new Set<QueryParameter>(['fields', 'populate', 'status', 'locale', 'publicationFilter', 'hasPublishedVersion', 'publicationState']);
const DELETE_PARAMETERS = new Set<QueryParameter>(['locale']);

const parametersOf = (operation: RouteOperation): ReadonlySet<QueryParameter> =>
  operation.list ? LIST_PARAMETERS : operation.action === 'delete' ? DELETE_PARAMETERS : DOCUMENT_PARAMETERS;

export const createContentHandler = (runtime: Runtime, routes: ContentRoutes) => {
  const { config } = runtime.services;
  const { maxResponseBytes } = config.graphql;
  const calls = runtime.rest;

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
      return sendReadWithin(request, response, maxResponseBytes, { data: v4 ? documents.map(toV4) : documents, meta: { pagination: pagination.meta(pageInfo?.total) } });
    }
    const document = shape(value as Document);
    const body = { data: v4 ? toV4(document) : document, meta: {} };
    if (operation.kind === 'query') return sendReadWithin(request, response, maxResponseBytes, body);
    return sendJsonWithin(response, maxResponseBytes, operation.action === 'create' ? 201 : 200, body);
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
    const query = parseQueryString(url.search, parametersOf(operation), config.rest.strictQuery);
    const { result, compiled, pagination } = await calls.run(request, url, { operation, contentType, query, documentId, body });
    respond(request, response, operation, result, compiled, pagination);
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
