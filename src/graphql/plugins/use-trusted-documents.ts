import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { Plugin } from 'graphql-yoga';
import type { PersistedOperationsConfig } from '../../config/types';

/**
 * Trusted documents (`graphql.config.persistedOperations`): `/graphql` runs an operation named by
 * its hash, in Apollo's `extensions.persistedQuery.sha256Hash` form or as `documentId`, from the
 * store file read at start; with `allowArbitraryOperations: false`, nothing else. REST is untouched:
 * its operations are Folio's own, compiled from the request, and never pass through yoga's
 * request parameters, where this plugin works.
 */
export const useTrustedDocuments = ({ documents, allowArbitraryOperations }: PersistedOperationsConfig): Plugin =>
  usePersistedOperations({
    getPersistedOperation: (key) => (Object.prototype.hasOwnProperty.call(documents, key) ? documents[key] : null),
    allowArbitraryOperations,
    extractPersistedOperationId: (params) => {
      const extensions = params.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined;
      const hash = extensions?.persistedQuery?.sha256Hash;
      if (typeof hash === 'string') return hash;
      const documentId = (params as { documentId?: unknown }).documentId;
      return typeof documentId === 'string' ? documentId : null;
    },
  });
