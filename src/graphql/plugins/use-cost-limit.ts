import type { Plugin } from '@envelop/core';
import { costLimitError } from '../../errors/graphql-errors';
import { getOperationAST, visit, type DocumentNode, type ExecutionArgs, type ExecutionResult, type FieldNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { filtersCostOf, operationCost, type CostLimits } from '../operation-cost';
import type { CostMeter, FolioContext } from '../../context';

/**
 * `maxCost`: a `/graphql` operation (or subscription) whose cost (operation-cost.ts: lists multiply by
 * their page) is over the limit is refused before it runs, checked where variables are known, since they
 * size the pages. A REST read is counted as its answer is built instead: each field answered and
 * each row a relation reads costs 1, and past the limit the operation fails with the same refusal;
 * its filters are costed before it runs (filter-cost.ts), as they are planned before anything is read.
 * A REST write is estimated before it runs like a /graphql one: its answer is built once it is stored.
 * REST populates relations whole, as Strapi does, so an estimate counts every populated to-many relation
 * at `maxLimit` rows and refused ordinary requests of real projects (about 10^8 for a page list of
 * Strapi's LaunchPad); counting the answer bounds the work as closely and lets them through.
 */

export interface CostLimitOptions extends CostLimits {
  maxCost: number;
}

/** The arguments whose values change an operation's cost: pages multiply, filters add. */
const SIZING_ARGUMENTS = new Set(['pagination', 'filters']);

/** Costs are remembered for variables up to this long: a client's 1 MB filter is costed again, not kept. */
const MAX_REMEMBERED_KEY = 1024;

/** What a document's cost depends on, found once per document. */
interface Sizing {
  /** the variables sizing arguments take: only their values can change the cost */
  variables: string[];
  /** the fields with a `filters` argument: REST's filters are costed from them on each request */
  filtered: FieldNode[];
}

const sizingOf = (document: DocumentNode): Sizing => {
  const variables = new Set<string>();
  const filtered: FieldNode[] = [];
  visit(document, {
    Field(node) {
      if (node.arguments?.some((argument) => argument.name.value === 'filters')) filtered.push(node);
    },
    Argument(node) {
      if (!SIZING_ARGUMENTS.has(node.name.value)) return undefined;
      visit(node.value, {
        Variable(variable) {
          variables.add(variable.name.value);
        },
      });
      return false;
    },
  });
  return { variables: [...variables], filtered };
};

export const useCostLimit = (options: CostLimitOptions): Plugin => {
  const costError = (message: string, cost: number, advice = 'ask for smaller pages, fewer nested lists or fewer filter conditions') =>
    costLimitError(message, cost, options.maxCost, advice);
  // yoga (and REST's compiled operations) hand the same DocumentNode for the same text: costs are
  // remembered per document, operation and page-sizing variable values
  const known = new WeakMap<DocumentNode, { sizing: Sizing; costs: Map<string, number> }>();
  const entryOf = (document: DocumentNode) => {
    let entry = known.get(document);
    if (!entry) known.set(document, (entry = { sizing: sizingOf(document), costs: new Map() }));
    return entry;
  };
  const costOf = (schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>): number => {
    const entry = entryOf(document);
    const key = JSON.stringify([operation.name?.value ?? '', ...entry.sizing.variables.map((name) => variables[name] ?? null)]);
    let cost = entry.costs.get(key);
    if (cost === undefined) {
      cost = operationCost(schema, document, operation, variables, options);
      if (key.length > MAX_REMEMBERED_KEY) return cost;
      // a client varying page sizes must not grow the memory: a few sizes per document are plenty
      if (entry.costs.size >= 16) entry.costs.clear();
      entry.costs.set(key, cost);
    }
    return cost;
  };
  const refusal = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> | null | undefined) => {
    const operation = getOperationAST(document, operationName);
    if (!operation) return undefined;
    const cost = costOf(schema, document, operation, variables ?? {});
    if (cost <= options.maxCost) return undefined;
    return { errors: [costError(`Query cost ${cost} exceeds the maximum cost of ${options.maxCost}`, cost)] };
  };
  const guard = ({ args, setResultAndStopExecution }: { args: ExecutionArgs; setResultAndStopExecution(result: ExecutionResult): void }) => {
    const refused = refusal(args.schema, args.document, args.operationName, args.variableValues as Record<string, unknown> | undefined);
    if (refused) setResultAndStopExecution(refused);
  };
  return {
    onExecute(payload) {
      const { contextValue, document, operationName } = payload.args;
      // a REST write is estimated before it runs, as /graphql operations are: counted as its answer is
      // built, it would be refused after it was stored
      const isRestRead = (contextValue as Partial<FolioContext>).surface === 'rest' && getOperationAST(document, operationName)?.operation !== 'mutation';
      if (!isRestRead) return guard(payload);
      // filters are planned and tested before any value is answered: costed first
      const variables = (payload.args.variableValues ?? {}) as Record<string, unknown>;
      let spent = 0;
      for (const field of entryOf(document).sizing.filtered) spent += filtersCostOf(field, variables);
      if (spent > options.maxCost) {
        payload.setResultAndStopExecution({ errors: [costError(`The filters cost ${spent}, more than the maximum cost of ${options.maxCost}`, spent, 'use fewer conditions')] });
        return;
      }
      let exceeded: Error | undefined;
      const cost: CostMeter = {
        spend(values) {
          spent += values;
          if (spent > options.maxCost) throw (exceeded ??= costError(`The answer holds more than the maximum cost of ${options.maxCost} values`, spent));
        },
        remaining: () => Math.max(0, options.maxCost - spent),
      };
      // past the limit every further field and relation read throws (REST answers with the first error):
      // nothing more is read, only the fields of rows already read fail one by one
      payload.extendContext({ cost });
    },
    onSubscribe: guard,
  };
};
