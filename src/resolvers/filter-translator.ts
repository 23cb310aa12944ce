import { createFilterTranslator, type FilterTranslator } from '../query/translate-filters';
import { inheritScope, versionScope, type Scope } from '../documents/scope';
import { permissionFor } from '../sdl/naming';
import type { FolioContext } from '../context';

/** The filter translator for one request scope: relation filters look targets up in the inherited scope. */
export const filterTranslatorFor = (context: FolioContext, scope: Scope): FilterTranslator => {
  const { models, documents, config } = context.services;
  return createFilterTranslator({
    models,
    maxStringLength: config.graphql.maxFilterStringLength,
    canRead: (target) => context.principal.can(permissionFor(target, 'find')),
    lookup: async (target, filter, field) => {
      const rows = await documents.findMany(target, inheritScope(target, versionScope(scope), config.i18n), { filter });
      return rows.map((row) => row[field] ?? null);
    },
  });
};
