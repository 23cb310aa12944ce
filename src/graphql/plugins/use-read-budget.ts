import type { Plugin } from '@envelop/core';
import { withReadBudget } from '../../documents/read-budget';
import { readBudgetError } from '../../errors/graphql-errors';
import { bytesSpent, createByteAllowance } from '../../storage/byte-allowance';
import type { FolioContext } from '../../context';

/**
 * `maxReadBytes`: what one query or mutation may read from the store, on both surfaces (see
 * documents/read-budget). Per execution, so a subscription's reads, one per event, are not summed
 * over its life. An operation that passed it answers its errors without data: what it read before
 * was refused is an answer too large in the making, and serialized, only for `maxResponseBytes` to
 * refuse it, a 10 MB page read by one alias of four cost the main thread its text and its bytes.
 */
export const useReadBudget = (maxBytes: number): Plugin => ({
  onExecute({ args, extendContext }) {
    const { services } = args.contextValue as FolioContext;
    const allowance = createByteAllowance(maxBytes);
    extendContext({ services: { ...services, documents: withReadBudget(services.documents, allowance, (bytes) => readBudgetError(bytes, maxBytes)) } });
    return {
      onExecuteDone({ result, setResult }) {
        if (!result || Symbol.asyncIterator in result || bytesSpent(allowance) <= maxBytes) return;
        setResult({ errors: result.errors, data: null });
      },
    };
  },
});
