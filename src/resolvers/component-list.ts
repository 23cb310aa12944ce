import type { Models } from '../models/types';
import type { StoredDocument } from '../storage/types';
import { sortInMemory } from '../query/sort-in-memory';
import { createMatcher } from '../storage/create-matcher';
import { parsePagination } from '../query/parse-pagination';
import { parseSort } from '../query/parse-sort';
import type { FolioContext } from '../context';
import { filterTranslatorFor } from './filter-translator';
import type { ListArgs } from './relation-loader';
import { scopeOfRow, type ScopedRow } from './row-scope';

/** Components live inside their document: repeatable ones are filtered, sorted (in MongoDB's value order) and paged in memory. */
export const componentListResolver = (models: Models, field: string, componentUid: string) => {
  const component = models.components.get(componentUid);
  return async (parent: ScopedRow, args: ListArgs, context: FolioContext): Promise<StoredDocument[]> => {
    const items = Array.isArray(parent[field]) ? (parent[field] as StoredDocument[]) : [];
    if (!component) return items;
    const filter = await filterTranslatorFor(context, scopeOfRow(context, parent)).translateComponent(component.attributes, args.filters);
    const matches = createMatcher(filter);
    const sort = parseSort(component.attributes, args.sort);
    const sorted = sortInMemory(items.filter(matches), sort);
    // Without pagination a repeatable component is returned whole, as stored; the amount limit still applies.
    if (!args.pagination || Object.keys(args.pagination).length === 0) return sorted;
    const page = parsePagination(args.pagination, context.pageLimits);
    return sorted.slice(page.skip, page.skip + page.limit);
  };
};

