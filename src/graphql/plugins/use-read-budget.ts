import type { Plugin } from '@envelop/core';
import { withReadBudget } from '../../documents/read-budget';
import { readBudgetError } from '../../errors/graphql-errors';
import type { FolioContext } from '../../context';

/**
 * `maxReadBytes`: what one query or mutation may read from the store, on both surfaces (see
 * documents/read-budget). Per execution, so a subscription's reads, one per event, are not summed
 * over its life.
 */
export const useReadBudget = (maxBytes: number): Plugin => ({
  onExecute({ args, extendContext }) {
    const { services } = args.contextValue as FolioContext;
    extendContext({ services: { ...services, documents: withReadBudget(services.documents, maxBytes, (bytes) => readBudgetError(bytes, maxBytes)) } });
  },
});
