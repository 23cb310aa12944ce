import type { Plugin } from '@envelop/core';
import { createGraphQLError } from '@graphql-tools/utils';

/**
 * `amountLimit`: no list in a response may hold more items. Paginated lists are capped before
 * they are read; this is the backstop for every other list (hand-written resolvers included).
 */

const longestList = (value: unknown, limit: number): number | undefined => {
  if (Array.isArray(value)) {
    if (value.length > limit) return value.length;
    for (const item of value) {
      const found = longestList(item, limit);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) {
      const found = longestList(item, limit);
      if (found !== undefined) return found;
    }
  }
  return undefined;
};

export const useAmountLimit = (amountLimit: number): Plugin => ({
  onExecute() {
    return {
      onExecuteDone({ result, setResult }) {
        if (!result || Symbol.asyncIterator in result) return;
        const found = longestList(result.data, amountLimit);
        if (found === undefined) return;
        setResult({
          data: null,
          errors: [
            createGraphQLError(`A list of ${found} items exceeds the amount limit of ${amountLimit}`, {
              extensions: { code: 'LIMIT_EXCEEDED', http: { status: 400 } },
            }),
          ],
        });
      },
    };
  },
});
