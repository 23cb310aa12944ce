import type { Plugin } from '@envelop/core';
import { createGraphQLError } from '@graphql-tools/utils';
import { getOperationAST, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { operationCost, type CostLimits } from '../operation-cost';

/**
 * `maxCost`: an operation whose cost (operation-cost.ts: lists multiply by their page) is over
 * the limit is refused before it runs, on /graphql, REST and subscriptions alike. Checked where
 * variables are known, since they size the pages.
 */

export interface CostLimitOptions extends CostLimits {
  maxCost: number;
}

export const useCostLimit = (options: CostLimitOptions): Plugin => {
  const refusal = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> | null | undefined) => {
    const operation = getOperationAST(document, operationName);
    if (!operation) return undefined;
    const cost = operationCost(schema, document, operation, variables ?? {}, options);
    if (cost <= options.maxCost) return undefined;
    return {
      errors: [
        createGraphQLError(`Query cost ${cost} exceeds the maximum cost of ${options.maxCost}: ask for smaller pages or fewer nested lists`, {
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED', cost, maxCost: options.maxCost, http: { status: 400 } },
        }),
      ],
    };
  };
  const guard = ({ args, setResultAndStopExecution }: { args: ExecutionArgs; setResultAndStopExecution(result: ExecutionResult): void }) => {
    const refused = refusal(args.schema, args.document, args.operationName, args.variableValues as Record<string, unknown> | undefined);
    if (refused) setResultAndStopExecution(refused);
  };
  return { onExecute: guard, onSubscribe: guard };
};
