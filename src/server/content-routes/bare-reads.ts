import type { IncomingMessage } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { RouteOperation } from '../../rest-compiler/content-routes';
import type { RestCalls } from '../../rest-compiler/rest-calls';
import { errorBodyOf } from './rest-error';
import { errorBody, type ErrorBody } from '../error-envelope';
import { notFoundError } from '../../errors/graphql-errors';
import type { RestQuery } from '../../rest-compiler/parse-query-string';
import type { Document } from '../../rest-compiler/shape-document';
import type { PaginationLimits } from '../../query/parse-pagination';
import type { ContentType } from '../../models/types';

/**
 * The reads of the plugins' routes, which answer bare JSON (`/api/users…`, `/api/upload/files…`),
 * compiled onto the schema's queries for their type as content routes are: the same query model
 * (filters, sort, pagination, fields, populate), permissions (`find`, `findOne`, a relation's
 * target's for `populate`), limits and errors. Lists take v4's `start`/`limit` too, and without
 * pagination hold up to `api.rest.maxLimit` documents (Strapi's entity service lists every one).
 */

/** What these routes read from the query string: Strapi's entity-service parameters, v4's `start`/`limit` included. */
export interface BareQuery extends RestQuery {
  start?: unknown;
  limit?: unknown;
}

/** What was read, or the envelope's error for what was not (the operation's error; nothing found: 404). */
export type BareReadOutcome<T> = { found: T } | { failed: ErrorBody };

export interface BareReadsOptions {
  contentType: ContentType;
  /** the schema's root fields: the connection (`find`) and the one-document query (`findOne`) */
  listField: string;
  oneField: string;
  maxLimit: number;
}

interface Connection {
  nodes: Document[];
  pageInfo?: { total: number };
}

interface Read<T> {
  value: T;
  shape: (document: Document) => Document;
}

/** A read Shadow CRUD switched off answers as a read that found nothing (404). */
const NOT_SERVED = { failed: errorBody(notFoundError()) };

/** No documentId is this: a numeric id that names nothing still runs the operation, so that permission is checked first. */
const NO_DOCUMENT = '';

export const createBareReads = (schema: GraphQLSchema, rest: RestCalls, { contentType, listField, oneField, maxLimit }: BareReadsOptions) => {
  const queries = schema.getQueryType()?.getFields() ?? {};
  const limits: PaginationLimits = { defaultLimit: maxLimit, maxLimit };
  const list: RouteOperation | undefined = queries[listField] && { action: 'find', kind: 'query', field: queries[listField], list: true };
  const one: RouteOperation | undefined = queries[oneField] && { action: 'findOne', kind: 'query', field: queries[oneField], list: false };

  const pageOf = (query: BareQuery): unknown =>
    query.pagination ?? (query.start !== undefined || query.limit !== undefined ? { start: query.start ?? '0', limit: query.limit ?? String(maxLimit) } : undefined);

  const read = async <T>(request: IncomingMessage, url: URL, operation: RouteOperation, query: RestQuery, documentId?: string): Promise<BareReadOutcome<Read<T>>> => {
    const outcome = await rest.run(request, url, { operation, contentType, query, documentId, limits });
    const value = outcome.result.data?.data as T | null | undefined;
    const error = outcome.result.errors?.[0];
    if (error) return { failed: errorBodyOf(error) };
    return value && outcome.compiled ? { found: { value, shape: outcome.compiled.extra.shape } } : NOT_SERVED;
  };

  return {
    async find(request: IncomingMessage, url: URL, query: BareQuery): Promise<BareReadOutcome<Document[]>> {
      if (!list) return NOT_SERVED;
      const outcome = await read<Connection>(request, url, list, { filters: query.filters, sort: query.sort, fields: query.fields, populate: query.populate, pagination: pageOf(query) });
      return 'failed' in outcome ? outcome : { found: outcome.found.value.nodes.map(outcome.found.shape) };
    },
    async count(request: IncomingMessage, url: URL, query: BareQuery): Promise<BareReadOutcome<number>> {
      if (!list) return NOT_SERVED;
      const outcome = await read<Connection>(request, url, list, { filters: query.filters, fields: ['documentId'], pagination: { start: '0', limit: '1', withCount: 'true' } });
      return 'failed' in outcome ? outcome : { found: outcome.found.value.pageInfo?.total ?? 0 };
    },
    /** `documentId`: the document's, undefined when the numeric id in the path names none */
    async findOne(request: IncomingMessage, url: URL, documentId: string | undefined, query: BareQuery): Promise<BareReadOutcome<Document>> {
      if (!one) return NOT_SERVED;
      const outcome = await read<Document>(request, url, one, { fields: query.fields, populate: query.populate }, documentId ?? NO_DOCUMENT);
      return 'failed' in outcome ? outcome : { found: outcome.found.shape(outcome.found.value) };
    },
  };
};

export type BareReads = ReturnType<typeof createBareReads>;
