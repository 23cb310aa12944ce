import type { Attribute, ContentType, Models } from '../models/types';
import type { SortSpec } from '../storage/types';
import { badUserInput } from '../errors/graphql-errors';
import { bigintSortField } from '../documents/bigint-sort-key';

/** `"title"`, `"title:desc"`, `["kind:asc", "views:desc"]` or `"kind,views:desc"` → a store sort. */

const SYSTEM_SORTABLE = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale']);
const UNSORTABLE = new Set<Attribute['type']>(['relation', 'morph', 'media', 'component', 'dynamiczone', 'json', 'blocks', 'password']);

const isSortable = (attributes: Record<string, Attribute>, field: string): boolean => {
  if (!Object.prototype.hasOwnProperty.call(attributes, field)) return SYSTEM_SORTABLE.has(field);
  const attribute = attributes[field];
  return !UNSORTABLE.has(attribute.type) && attribute.private !== true;
};

/** `"kind, views:desc"` → `kind` and `views:desc`. */
const splitEntries = (value: string): string[] => value.split(',').map((part) => part.trim()).filter(Boolean);

const entriesOf = (sort: unknown, param: string): string[] => {
  if (sort === undefined || sort === null) return [];
  return (Array.isArray(sort) ? sort : [sort]).flatMap((entry) => {
    if (typeof entry !== 'string') throw badUserInput(`Invalid ${param} value ${JSON.stringify(entry)}`, { key: param, path: null, param });
    return splitEntries(entry);
  });
};

/**
 * The field (path) of each key a `sort` value names, in order: `["kind,views:desc", "category.name"]` →
 * kind, views, category.name. Read as the parser reads it, without judging the keys: what is not text
 * is left to the parser (or to GraphQL's coercion) to refuse.
 */
export const sortKeyFields = (sort: unknown): string[] =>
  (Array.isArray(sort) ? sort : [sort]).flatMap((entry) => (typeof entry === 'string' ? splitEntries(entry).map((key) => key.split(':', 1)[0]) : []));

/** `field:direction` → the field and 1 or -1, the field checked by `sortable`. */
const parseEntry = (entry: string, param: string, sortable: (field: string) => boolean): [string, 1 | -1] => {
  const [field, direction = 'asc', ...rest] = entry.split(':');
  if (!sortable(field)) throw badUserInput(`Invalid key ${field}`, { key: field, path: null, source: 'query', param });
  const normalized = direction.toLowerCase();
  if (rest.length > 0 || (normalized !== 'asc' && normalized !== 'desc')) {
    throw badUserInput(`Invalid sort direction "${direction}" for ${field} (expected asc or desc)`, { key: field, path: null, param });
  }
  return [field, normalized === 'asc' ? 1 : -1];
};

/** The stored field a sort on `field` reads: big integers sort by their key (see bigint-sort-key). */
const storedSortField = (attributes: Record<string, Attribute>, field: string): string =>
  Object.prototype.hasOwnProperty.call(attributes, field) && attributes[field].type === 'biginteger' ? bigintSortField(field) : field;

export const parseSort = (attributes: Record<string, Attribute>, sort: unknown, param = 'sort'): SortSpec =>
  entriesOf(sort, param).map((entry) => {
    const [field, direction] = parseEntry(entry, param, (candidate) => isSortable(attributes, candidate));
    return [storedSortField(attributes, field), direction];
  });

/** A sort key that may go through to-one relations: `category.name` is `['category', 'name']`. */
export interface SortPath {
  path: string[];
  direction: 1 | -1;
}

/** The content-type that `path` (relation names, then a field) ends on, if every hop is an owned, public to-one relation. */
const targetAlong = (models: Models, contentType: ContentType, hops: string[]): ContentType | undefined =>
  hops.reduce<ContentType | undefined>((owner, hop) => {
    const attribute = owner && Object.prototype.hasOwnProperty.call(owner.attributes, hop) ? owner.attributes[hop] : undefined;
    const toOne = attribute?.type === 'relation' && !attribute.mappedBy && attribute.private !== true && (attribute.relation === 'manyToOne' || attribute.relation === 'oneToOne');
    return toOne && attribute.type === 'relation' ? models.contentTypes.get(attribute.target) : undefined;
  }, contentType);

/** Like `parseSort`, with a related document's field allowed too (`category.name:asc`), as Strapi allows. */
export const parseSortPaths = (models: Models, contentType: ContentType, sort: unknown, param = 'sort'): SortPath[] =>
  entriesOf(sort, param).map((entry) => {
    const sortable = (field: string) => {
      const path = field.split('.');
      const owner = targetAlong(models, contentType, path.slice(0, -1));
      return owner !== undefined && isSortable(owner.attributes, path[path.length - 1]);
    };
    const [field, direction] = parseEntry(entry, param, sortable);
    const path = field.split('.');
    const owner = targetAlong(models, contentType, path.slice(0, -1)) as ContentType;
    return { path: [...path.slice(0, -1), storedSortField(owner.attributes, path[path.length - 1])], direction };
  });
