import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteOperation } from '../../rest-compiler/content-routes';
import { QUERY_PARAMETERS, type QueryParameter } from '../../rest-compiler/parse-query-string';
import type { Document } from '../../rest-compiler/shape-document';
import type { RestOutcome } from '../../rest-compiler/rest-calls';
import { errorBodyOf } from './rest-error';
import { errorBody, type ErrorBody } from '../error-envelope';
import { notFoundError } from '../../errors/graphql-errors';
import { sendEmpty, sendError, sendJsonWithin, sendReadWithin } from '../http-json';

/**
 * What a core action (find, findOne, create, update, delete) answers, from the outcome of its
 * compiled operation: Strapi's `{ data, meta }` with its status, an empty 204, or an error body.
 * Content routes send it at once; project routes hand it to their middlewares first.
 */

interface Connection {
  nodes: Document[];
  pageInfo?: { total: number };
}

const LIST_PARAMETERS = new Set<QueryParameter>(QUERY_PARAMETERS);
const DOCUMENT_PARAMETERS = new Set<QueryParameter>(['fields', 'populate', 'status', 'locale', 'publicationFilter', 'hasPublishedVersion', 'publicationState']);
const DELETE_PARAMETERS = new Set<QueryParameter>(['locale']);

/** The query parameters an action reads. */
export const parametersOf = (operation: RouteOperation): ReadonlySet<QueryParameter> =>
  operation.list ? LIST_PARAMETERS : operation.action === 'delete' ? DELETE_PARAMETERS : DOCUMENT_PARAMETERS;

export type CoreReply = { kind: 'body'; status: number; body: { data: unknown; meta: Record<string, unknown> } } | { kind: 'empty'; status: 204 } | { kind: 'error'; error: ErrorBody };

export const coreReplyOf = (operation: RouteOperation, { result, compiled, pagination }: RestOutcome, v4: boolean): CoreReply => {
  const error = result.errors?.[0];
  // Deleting what is not there answers 204, as Strapi 5.54 does: DELETE is idempotent.
  if (operation.action === 'delete' && (!error || error.extensions?.code === 'NOT_FOUND')) return { kind: 'empty', status: 204 };
  if (error || !compiled) return { kind: 'error', error: errorBodyOf(error) };
  const value = result.data?.data ?? null;
  if (value === null) return { kind: 'error', error: errorBody(notFoundError()) };
  const { shape, toV4 } = compiled.extra;
  if (operation.list && pagination) {
    const { nodes, pageInfo } = value as Connection;
    const documents = nodes.map(shape);
    return { kind: 'body', status: 200, body: { data: v4 ? documents.map(toV4) : documents, meta: { pagination: pagination.meta(pageInfo?.total) } } };
  }
  const document = shape(value as Document);
  return { kind: 'body', status: operation.action === 'create' ? 201 : 200, body: { data: v4 ? toV4(document) : document, meta: {} } };
};

/** A read's 200 goes with an ETag; every answer is held to `maxResponseBytes`. */
export const sendCoreReply = (request: IncomingMessage, response: ServerResponse, operation: RouteOperation, reply: CoreReply, maxResponseBytes: number) => {
  if (reply.kind === 'error') return sendError(response, reply.error);
  if (reply.kind === 'empty') return sendEmpty(response, reply.status);
  if (operation.kind === 'query') return sendReadWithin(request, response, maxResponseBytes, reply.body);
  return sendJsonWithin(response, maxResponseBytes, reply.status, reply.body);
};
