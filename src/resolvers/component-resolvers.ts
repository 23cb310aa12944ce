import { Query } from 'mingo';
import type { IResolvers } from '@graphql-tools/utils';
import type { Models } from '../models/types';
import type { StoredDocument } from '../storage/types';
import { componentTypeName, dynamicZoneName, typeName } from '../sdl/naming';
import { parsePagination } from '../query/parse-pagination';
import { parseSort } from '../query/parse-sort';
import type { FolioContext } from './context';
import { filterTranslatorFor } from './filter-translator';
import type { ListArgs } from './relation-loader';
import { scopeOfRow, type ScopedRow } from './row-scope';
import { attributeFieldResolvers } from './content-type-resolvers';

/** Components live inside their document: repeatable ones are filtered, sorted and paged in memory. */

const compare = (left: unknown, right: unknown): number => {
  if (left === right) return 0;
  if (left === null || left === undefined) return -1;
  if (right === null || right === undefined) return 1;
  return left < right ? -1 : 1;
};

export const componentListResolver = (models: Models, field: string, componentUid: string) => {
  const component = models.components.get(componentUid);
  return async (parent: ScopedRow, args: ListArgs, context: FolioContext): Promise<StoredDocument[]> => {
    const items = Array.isArray(parent[field]) ? (parent[field] as StoredDocument[]) : [];
    if (!component) return items;
    const filter = await filterTranslatorFor(context, scopeOfRow(parent)).translateComponent(component.attributes, args.filters);
    const query = new Query(filter);
    const sort = parseSort(component.attributes, args.sort);
    const matching = items.filter((item) => query.test(item));
    const sorted = sort.length === 0
      ? matching
      : [...matching].sort((a, b) => {
          for (const [key, direction] of sort) {
            const order = compare(a[key], b[key]) * direction;
            if (order !== 0) return order;
          }
          return 0;
        });
    // Without pagination a repeatable component is returned whole, as stored; the amount limit still applies.
    if (!args.pagination || Object.keys(args.pagination).length === 0) return sorted;
    const { defaultLimit, maxLimit } = context.services.config.graphql;
    const page = parsePagination(args.pagination, { defaultLimit, maxLimit });
    return sorted.slice(page.skip, page.skip + page.limit);
  };
};

export const componentResolvers = (models: Models): IResolvers => {
  const resolvers: Record<string, unknown> = {};
  for (const component of models.components.values()) {
    resolvers[componentTypeName(component)] = attributeFieldResolvers(models, component);
  }
  const typeNameByUid = new Map([...models.components.values()].map((component) => [component.uid, componentTypeName(component)]));
  for (const contentType of models.contentTypes.values()) {
    for (const [name, attribute] of Object.entries(contentType.attributes)) {
      if (attribute.type !== 'dynamiczone') continue;
      resolvers[dynamicZoneName(typeName(contentType), name)] = {
        __resolveType: (entry: StoredDocument) => typeNameByUid.get(entry.__component as string) ?? 'Error',
      };
    }
  }
  return resolvers as IResolvers;
};
