import type { ExecutionResult, GraphQLSchema } from 'graphql';
import type { Services } from '../context';
import type { GraphqlServer } from '../graphql/create-graphql-server';
import type { ContentType } from '../models/types';
import type { RouteOperation } from './content-routes';
import type { RestQuery } from './parse-query-string';
import { createOwnerViews, type OwnerView } from './owner-views';
import { createRestFilterConverter } from './rest-filters';
import { createSearchFilter } from './search-filter';
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

export const createAggregationCalls = ({ services, schema, graphql }: { services: Services; schema: GraphQLSchema; graphql: GraphqlServer }) => {
  const { config } = services;
  const views = createOwnerViews(services.models, schema);
  const filters = createRestFilterConverter(schema);
  const runner = createOperationRunner<undefined>(graphql, config.rest);
  const toFetchRequest = createFetchRequest(graphql.fetchAPI);

  const filtersOf = (view: OwnerView, query: RestQuery): Record<string, unknown> | undefined => {
    const converted = query.filters === undefined ? undefined : filters.convert(view.filtersInput, query.filters);
    const search = query._q === undefined ? undefined : createSearchFilter(schema, view)(query._q);
    return converted && search ? { and: [converted, search] } : (converted ?? search);
  };

  return async (request: RequestHead, url: URL, operation: RouteOperation, contentType: ContentType, query: RestQuery): Promise<AggregationOutcome> => {
    const aggregation = parseRestAggregation(schema, contentType, query);
    const view = views.get(contentType.uid) as OwnerView;
    const values: Record<string, unknown> = {
      filters: filtersOf(view, query),
      status: parseStatus(query.status),
      publicationFilter: parsePublicationFilter(query.publicationFilter),
      hasPublishedVersion: parseHasPublishedVersion(query.hasPublishedVersion),
      locale: parseLocale(query.locale),
    };
    const variables: Record<string, unknown> = {};
    for (const name of rootArgumentsOf(operation)) if (values[name] !== undefined) variables[name] = values[name];
    if (aggregation.groupBy !== undefined) {
      variables.groupSort = aggregation.sort;
      variables.groupPagination = parseRestPagination(query.pagination, config.rest).argument;
    }
    const source = aggregationText(operation, aggregation);
    const { result } = await runner.run(toFetchRequest(request, url), source, () => ({ source, extra: undefined }), variables);
    return result.errors?.length ? { result } : { result, entries: shapeAggregation(contentType, aggregation, result.data?.data) };
  };
};
