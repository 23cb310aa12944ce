import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Runtime } from '../folio-module';
import type { ContentType } from '../../models/types';
import type { ContentRoutes, HttpMethod, RouteOperation } from '../../rest-compiler/content-routes';
import { parseQueryString } from '../../rest-compiler/parse-query-string';
import { isV4 } from '../../rest-compiler/rest-calls';
import { errorBodyOf } from './rest-error';
import { errorBody } from '../error-envelope';
import { methodNotAllowedError } from '../../errors/graphql-errors';
import { drainBody, readJsonBody, sendError, sendReadWithin } from '../http-json';
import { coreReplyOf, parametersOf, sendCoreReply } from './core-reply';
import { createAggregationCalls, wantsAggregation } from '../../rest-compiler/aggregation-calls';

/**
 * One content-API request: route, query string and body → the REST front (rest-calls) → Strapi's
 * REST envelope.
 */

/** `served`: the content-types whose routes this handler answers (a project's route files answer the others') */
export const createContentHandler = (runtime: Runtime, routes: ContentRoutes, served: (contentType: ContentType) => boolean) => {
  const { config } = runtime.services;
  const { maxResponseBytes } = config.graphql;
  const calls = runtime.rest;
  const aggregate = createAggregationCalls(runtime);

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
    if (wantsAggregation(operation, query)) {
      const { result, entries } = await aggregate(request, url, operation, contentType, query);
      if (!entries) return sendError(response, errorBodyOf(result.errors?.[0]));
      return sendReadWithin(request, response, maxResponseBytes, { data: entries, meta: {} });
    }
    const outcome = await calls.run(request, url, { operation, contentType, query, documentId, body });
    sendCoreReply(request, response, operation, coreReplyOf(operation, outcome, isV4(request)), maxResponseBytes);
  };

  return async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> => {
    const match = routes.match(url.pathname);
    if (!match || !served(match.route.contentType)) return false;
    try {
      await handle(request, response, url, match.operations, match.route.contentType, match.documentId);
    } catch (error) {
      sendError(response, errorBodyOf(error));
    }
    return true;
  };
};
