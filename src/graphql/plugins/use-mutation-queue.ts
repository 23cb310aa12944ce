import type { Plugin } from '@envelop/core';
import { getOperationAST } from 'graphql';
import { createFifoGate } from '../../common/fifo-gate';

/**
 * `maxConcurrentMutations`: at most that many mutations execute at once in this process, on both surfaces;
 * the others wait their turn in the order they came. Queries and subscriptions are not held.
 *
 * Why: one main thread runs every write's JavaScript, and the store takes one writer at a time. With 50
 * creates in flight each went back to the event loop's queue at every await, behind the other 49, so their
 * tail was set by how often they lost those turns: at 50,000 articles and c = 50, p99 0.9-1.4 s for a p50
 * of 0.2 s. Taken in arrival order, four at a time, the same run gave a p99 of 0.37 s at the same
 * throughput (docs/speed.md). The wait is for the execution only: the body, the parse, the checks of the
 * operation and the caller come before it, so a refused mutation never queues.
 */
export const useMutationQueue = (limit: number): Plugin => {
  const gate = createFifoGate(limit);
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== 'mutation') return;
      setExecuteFn((executeArgs) => gate.run(() => executeFn(executeArgs)));
    },
  };
};
