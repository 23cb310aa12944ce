import DataLoader from 'dataloader';
import type { Component, ContentType, RelationAttribute } from '../models/types';
import type { Filter, StoredDocument, StoredValue } from '../storage/types';
import { parsePagination } from '../query/parse-pagination';
import { parseSort } from '../query/parse-sort';
import { inheritScope, scopeKey, type Scope } from '../documents/scope';
import type { FolioContext } from '../context';
import { scopeOfRow, withScope, type ScopedRow } from './row-scope';
import { filterTranslatorFor } from './filter-translator';

/**
 * Relation loading, batched per request: all parents asking for the same relation with the same
 * arguments in the same scope are answered by one store query, whatever their number.
 */

export interface ListArgs {
  filters?: unknown;
  sort?: unknown;
  pagination?: Record<string, unknown>;
}

const asList = (value: StoredValue | undefined): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : typeof value === 'string' ? [value] : [];

/** A document row is known by its id; a component by itself (a document's versions may hold components of one id). */
const rowKey = (row: ScopedRow): unknown => row.id;
const itself = (row: ScopedRow): unknown => row;

const loaderFor = <V>(
  context: FolioContext,
  key: string,
  batch: (parents: readonly ScopedRow[]) => Promise<V[]>,
  cacheKeyFn: (row: ScopedRow) => unknown = rowKey,
): DataLoader<ScopedRow, V, unknown> => {
  let loader = context.loaders.get(key) as DataLoader<ScopedRow, V, unknown> | undefined;
  if (!loader) {
    loader = new DataLoader<ScopedRow, V, unknown>(batch, { cacheKeyFn });
    context.loaders.set(key, loader as DataLoader<unknown, unknown, unknown>);
  }
  return loader;
};


/** Pages one parent's rows; the store query already filtered and, when asked, sorted them. */
const pageRows = (rows: StoredDocument[], args: ListArgs, context: FolioContext): StoredDocument[] => {
  const page = parsePagination(args.pagination, context.pageLimits);
  return rows.slice(page.skip, page.skip + page.limit);
};

const isToMany = (attribute: RelationAttribute): boolean => attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany';

/** What a relation field answers for one parent, given the parent's related rows. */
export const relationValue = (attribute: RelationAttribute, rows: StoredDocument[]): StoredDocument[] | StoredDocument | null =>
  isToMany(attribute) ? rows : (rows[0] ?? null);

/** The scope a relation's rows are read in: the parent's, narrowed to what the target supports. */
export const relationScope = (context: FolioContext, target: ContentType, parent: ScopedRow): Scope => inheritScope(target, scopeOfRow(context, parent), context.services.config.i18n);

/**
 * One store query answering a relation for many parents that share a scope: each parent's related
 * rows, filtered, sorted and paged by `args`.
 */
export const relationBatch =
  (context: FolioContext, field: string, attribute: RelationAttribute, target: ContentType, scope: Scope, args: ListArgs) =>
  async (parents: readonly ScopedRow[]): Promise<StoredDocument[][]> => {
    const sort = parseSort(target.attributes, args.sort);
    const userFilter = await filterTranslatorFor(context, scope).translate(target, args.filters);
    const parentIds = parents.map((row) => row.documentId as string);
    const link: Filter = attribute.mappedBy
      ? { [attribute.mappedBy]: { $in: parentIds } }
      : { documentId: { $in: [...new Set(parents.flatMap((row) => asList(row[field])))] } };
    // Every related row read counts against a REST answer's maxCost, paged out or not: a read takes at most
    // one row past what is left, and then the answer fails, so the reading stops with the budget.
    const limit = context.cost && context.cost.remaining() + 1;
    const rows = await context.services.documents.findMany(target, scope, { filter: Object.keys(userFilter).length > 0 ? { $and: [link, userFilter] } : link, sort, limit });
    context.cost?.spend(rows.length);
    for (const row of rows) withScope(context, row, scope);
    if (attribute.mappedBy) {
      // each target row names its owners: group once, in the store's order
      const byOwner = new Map<string, StoredDocument[]>();
      for (const row of rows) {
        for (const owner of asList(row[attribute.mappedBy])) {
          const group = byOwner.get(owner);
          if (group) group.push(row);
          else byOwner.set(owner, [row]);
        }
      }
      return parents.map((row) => pageRows(byOwner.get(row.documentId as string) ?? [], args, context));
    }
    const byId = new Map<string, StoredDocument>(rows.map((row) => [row.documentId as string, row]));
    return parents.map((row) => {
      const ids = asList(row[field]);
      // unsorted relations keep the order they were connected in; sorted ones the store's order
      const own = sort.length > 0 ? rows.filter((candidate) => ids.includes(candidate.documentId as string)) : ids.map((id) => byId.get(id)).filter((row): row is StoredDocument => row !== undefined);
      return pageRows(own, args, context);
    });
  };

/** `owner`: the content-type or component whose attribute `field` is. */
export const loadRelation = async (
  context: FolioContext,
  owner: ContentType | Component,
  field: string,
  attribute: RelationAttribute,
  parent: ScopedRow,
  args: ListArgs,
): Promise<StoredDocument[] | StoredDocument | null> => {
  const target = context.services.models.contentTypes.get(attribute.target);
  if (!target) return null;
  const scope = relationScope(context, target, parent);
  const key = `relation|${owner.uid}.${field}|${scopeKey(scope)}|${JSON.stringify(args)}`;
  const loader = loaderFor<StoredDocument[]>(context, key, relationBatch(context, field, attribute, target, scope, args), 'kind' in owner ? rowKey : itself);
  return relationValue(attribute, await loader.load(parent));
};

export const loadLocalizations = async (context: FolioContext, contentType: ContentType, parent: ScopedRow, args: ListArgs): Promise<StoredDocument[]> => {
  const scope = scopeOfRow(context, parent);
  const key = `localizations|${contentType.uid}|${scope.status}|${JSON.stringify(args)}`;
  const loader = loaderFor<StoredDocument[]>(context, key, async (parents) => {
    const allLocales: Scope = { status: scope.status, locale: '*' };
    const sort = parseSort(contentType.attributes, args.sort);
    const userFilter = await filterTranslatorFor(context, allLocales).translate(contentType, args.filters);
    const link: Filter = { documentId: { $in: parents.map((row) => row.documentId as string) } };
    const rows = await context.services.documents.findMany(contentType, allLocales, {
      filter: Object.keys(userFilter).length > 0 ? { $and: [link, userFilter] } : link,
      sort,
    });
    return parents.map((row) => {
      const own = rows.filter((candidate) => candidate.documentId === row.documentId && candidate.locale !== row.locale);
      for (const candidate of own) withScope(context, candidate, { status: scope.status, locale: candidate.locale as string });
      return pageRows(own, args, context);
    });
  });
  return loader.load(parent);
};
