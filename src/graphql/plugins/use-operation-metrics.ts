import { getOperationAST, GraphQLError, type ExecutionResult, type FieldNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { httpStatusOf, strapiErrorOf } from '../../errors/graphql-errors';
import type { FolioMetrics } from '../../metrics/folio-metrics';
import { secondsSince } from '../../metrics/seconds-since';
import type { FolioContext } from '../../context';

/**
 * Counts and times every operation the pipeline executes into `/metrics`, REST's compiled ones included.
 * The operation is named by its GraphQL operation name, or by its root fields when it has none (REST's
 * operations: `articles_connection`, `createArticle`); its status is the one its first error answers on
 * REST (a Folio error's own, 500 for anything else), 200 without errors.
 */

const statusOf = (result: ExecutionResult): string => {
  const error = result.errors?.[0];
  if (!error) return '200';
  const strapi = error instanceof GraphQLError ? strapiErrorOf(error) : undefined;
  return String(strapi ? httpStatusOf(strapi.name) : 500);
};

export const useOperationMetrics = (metrics: FolioMetrics): Plugin<FolioContext> => ({
  onExecute({ args }) {
    const context = args.contextValue as FolioContext;
    const surface = context.surface === 'rest' ? 'rest' : 'graphql';
    const operation = getOperationAST(args.document, args.operationName);
    const name =
      surface === 'graphql' && operation?.name
        ? operation.name.value
        : (operation?.selectionSet.selections
            .filter((selection): selection is FieldNode => selection.kind === 'Field')
            .map((field) => field.name.value)
            .join(',') ?? 'unknown');
    const label = metrics.operationLabel(name);
    const started = process.hrtime.bigint();
    return {
      onExecuteDone({ result }) {
        // a subscription's stream is not one answer: its start is counted, not its events
        const status = Symbol.asyncIterator in result ? '200' : statusOf(result);
        metrics.operations.labels(surface, label, status).inc();
        metrics.operationDuration.labels(surface, label).observe(secondsSince(started));
      },
    };
  },
});
