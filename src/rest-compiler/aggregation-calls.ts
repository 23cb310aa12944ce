import type { ExecutionResult, GraphQLSchema } from 'graphql';
import type { Services } from '../context';
import type { GraphqlServer } from '../graphql/create-graphql-server';
import type { ContentType } from '../models/types';
import type { RouteOperation } from './content-routes';
import type { RestQuery } from './parse-query-string';
import type { RestCalls } from './rest-calls';
import { parseRestPagination } from './rest-pagination';
import { parseHasPublishedVersion, parseLocale, parsePublicationFilter, parseStatus } from './rest-scope';
import { rootArgumentsOf } from './operation-text';
import { aggregationText, parseRestAggregation, shapeAggregation } from './rest-aggregation';
import { createOperationRunner } from './run-operation';
import { createFetchRequest, type RequestHead } from '../graphql/fetch-request';

/**
 * A list route asked for `aggregate` or `groupBy` (issue 36): its filters, `_q`, status and locale as the list
 * reads them, compiled onto the connection's `aggregate` / `groupBy` fields (rest/rest-aggregation.ts) and run
 * through the same pipeline as every REST read, so permissions, limits and errors are the list's.
 */

export const wantsAggregation = (operation: RouteOperation, query: RestQuery): boolean => operation.list && (query.aggregate !== undefined || query.groupBy !== undefined);

/** The pipeline's answer, and its `data` as REST's entries when it has no error. */
export interface AggregationOutcome {
  result: ExecutionResult;
  entries?: Array<Record<string, unknown>>;
}

/** `rest`: the REST front, whose `filters` and `_q` (with its search per type) the aggregation reads as the list does */
export const createAggregationCalls = ({ services, schema, graphql, rest }: { services: Services; schema: GraphQLSchema; graphql: GraphqlServer; rest: Pick<RestCalls, 'listFilters'> }) => {
  const { config } = services;
  const runner = createOperationRunner<undefined>(graphql, config.rest);
  const toFetchRequest = createFetchRequest(graphql.fetchAPI);

  return async (request: RequestHead, url: URL, operation: RouteOperation, contentType: ContentType, query: RestQuery): Promise<AggregationOutcome> => {
    const aggregation = parseRestAggregation(schema, contentType, query);
    const values: Record<string, unknown> = {
      filters: rest.listFilters(contentType, query),
      status: parseStatus(query.status),
      publicationFilter: parsePublicationFilter(query.publicationFilter),
      hasPublishedVersion: parseHasPublishedVersion(query.hasPublishedVersion),
      locale: parseLocale(query.locale),
    };
    const variables: Record<string, unknown> = {};
    for (const name of rootArgumentsOf(operation)) if (values[name] !== undefined) variables[name] = values[name];
    if (aggregation.groupBy.length > 0) {
      variables.groupSort = aggregation.sort;
      variables.groupPagination = parseRestPagination(query.pagination, config.rest).argument;
    }
    const source = aggregationText(operation, aggregation);
    const { result } = await runner.run(toFetchRequest(request, url), source, () => ({ source, extra: undefined }), variables);
    return result.errors?.length ? { result } : { result, entries: shapeAggregation(contentType, aggregation, result.data?.data) };
  };
};
