import type { ContentType, RelationAttribute } from '../models/types';
import type { Filter, StoredDocument } from '../storage/types';
import type { SortPath } from '../query/parse-sort';
import { inheritScope, versionScope, type Scope } from '../documents/scope';
import { compareValues } from '../storage/compare-values';
import type { FolioContext } from '../context';

/**
 * A list sorted by a related document's field (`sort: "category.name:asc"`). The store cannot
 * join, so every matching row is read, each relation hop costs one query for all of them, and
 * the page is cut after sorting in memory, in the store's order (MongoDB's), ties by id.
 * Only lists sorted this way pay for it.
 */

const valuesAlong = async (context: FolioContext, contentType: ContentType, scope: Scope, rows: StoredDocument[], path: string[]): Promise<unknown[]> => {
  const { documents, models, config } = context.services;
  let owner = contentType;
  let ownerScope = scope;
  let current: Array<StoredDocument | undefined> = rows;
  for (const hop of path.slice(0, -1)) {
    const target = models.contentTypes.get((owner.attributes[hop] as RelationAttribute).target) as ContentType;
    const targetScope = inheritScope(target, versionScope(ownerScope), config.i18n);
    const ids = [...new Set(current.flatMap((row) => (typeof row?.[hop] === 'string' ? [row[hop] as string] : [])))];
    const filter: Filter = { documentId: { $in: ids } };
    const byId = new Map((await documents.findMany(target, targetScope, { filter })).map((row) => [row.documentId, row]));
    current = current.map((row) => (typeof row?.[hop] === 'string' ? byId.get(row[hop]) : undefined));
    owner = target;
    ownerScope = targetScope;
  }
  const field = path[path.length - 1];
  return current.map((row) => row?.[field] ?? null);
};

export const findSortedThroughRelations = async (
  context: FolioContext,
  contentType: ContentType,
  scope: Scope,
  filter: Filter,
  keys: SortPath[],
  page: { skip: number; limit: number },
): Promise<StoredDocument[]> => {
  const rows = await context.services.documents.findMany(contentType, scope, { filter });
  const columns = await Promise.all(keys.map((key) => valuesAlong(context, contentType, scope, rows, key.path)));
  const order = rows.map((_, index) => index);
  order.sort((left, right) => {
    for (const [index, key] of keys.entries()) {
      const compared = compareValues(columns[index][left], columns[index][right]) * key.direction;
      if (compared !== 0) return compared;
    }
    return compareValues(rows[left].id, rows[right].id);
  });
  return order.slice(page.skip, page.skip + page.limit).map((index) => rows[index]);
};
