import type { Plugin } from 'graphql-yoga';
import type { ExecutionResult } from 'graphql';

/**
 * A request that never reached execution (parse, validation or variable errors: no `data`)
 * answers HTTP 400 whatever the client accepts, as Strapi does; yoga keeps 200 for plain
 * `application/json`. Execution errors stay 200 so Apollo Client keeps them.
 */
export const useValidationStatus = (): Plugin => ({
  onResultProcess({ result, setResult }) {
    if (Array.isArray(result) || Symbol.asyncIterator in result) return;
    const single = result as ExecutionResult;
    if (!single.errors?.length || 'data' in single) return;
    setResult({ ...single, extensions: { ...single.extensions, http: { ...(single.extensions?.http as object), status: 400 } } });
  },
});
