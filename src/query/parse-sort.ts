import type { Attribute } from '../models/types';
import type { SortSpec } from '../storage/types';
import { badUserInput } from '../errors/graphql-errors';

/** `"title"`, `"title:desc"`, `["kind:asc", "views:desc"]` or `"kind,views:desc"` → a store sort. */

const SYSTEM_SORTABLE = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale']);
const UNSORTABLE = new Set<Attribute['type']>(['relation', 'media', 'component', 'dynamiczone', 'json', 'blocks', 'password']);

export const isSortable = (attributes: Record<string, Attribute>, field: string): boolean => {
  if (!Object.prototype.hasOwnProperty.call(attributes, field)) return SYSTEM_SORTABLE.has(field);
  const attribute = attributes[field];
  return !UNSORTABLE.has(attribute.type) && attribute.private !== true;
};

export const parseSort = (attributes: Record<string, Attribute>, sort: unknown, param = 'sort'): SortSpec => {
  if (sort === undefined || sort === null) return [];
  const entries = (Array.isArray(sort) ? sort : [sort]).flatMap((entry) => {
    if (typeof entry !== 'string') throw badUserInput(`Invalid ${param} value ${JSON.stringify(entry)}`, { key: param, path: null, param });
    return entry.split(',').map((part) => part.trim()).filter(Boolean);
  });
  return entries.map((entry): [string, 1 | -1] => {
    const [field, direction = 'asc', ...rest] = entry.split(':');
    if (!isSortable(attributes, field)) throw badUserInput(`Invalid key ${field}`, { key: field, path: null, source: 'query', param });
    const normalized = direction.toLowerCase();
    if (rest.length > 0 || (normalized !== 'asc' && normalized !== 'desc')) {
      throw badUserInput(`Invalid sort direction "${direction}" for ${field} (expected asc or desc)`, { key: field, path: null, param });
    }
    return [field, normalized === 'asc' ? 1 : -1];
  });
};
