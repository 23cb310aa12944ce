import type { Attribute, ContentType, Models, ScalarAttributeType } from '../models/types';
import type { Filter } from '../storage/types';
import { createFilterTranslator } from '../query/translate-filters';
import { MAX_FILTER_DEPTH } from '../resolvers/filter-translator';

/**
 * Filters and sort over file records, through the same translator as documents: the file model
 * is described as a content-type whose attributes are the filterable fields of
 * `UploadFileFiltersInput` (plus `id`, which REST filters by).
 */

const scalar = (type: ScalarAttributeType): Attribute => ({ type, localized: false });

export const FILE_CONTENT_TYPE: ContentType = {
  uid: 'plugin::upload.file',
  apiName: 'upload',
  kind: 'collectionType',
  collectionName: 'files',
  singularName: 'file',
  pluralName: 'files',
  displayName: 'File',
  draftAndPublish: false,
  localized: false,
  attributes: {
    id: scalar('integer'),
    name: scalar('string'),
    alternativeText: scalar('string'),
    caption: scalar('string'),
    width: scalar('integer'),
    height: scalar('integer'),
    hash: scalar('string'),
    ext: scalar('string'),
    mime: scalar('string'),
    size: scalar('decimal'),
    url: scalar('string'),
    previewUrl: scalar('string'),
    provider: scalar('string'),
  },
  file: '<built-in upload plugin>',
};

/** `filters` (GraphQL operators, without REST's `$`) → a store filter on the files collection. */
export const createFileFilterTranslator = (models: Models, maxStringLength: number) => {
  const translator = createFilterTranslator({
    models,
    maxStringLength,
    maxDepth: MAX_FILTER_DEPTH,
    lookup: () => Promise.reject(new Error('file records have no relations to look up')),
  });
  return (filters: unknown): Promise<Filter> => translator.translate(FILE_CONTENT_TYPE, filters);
};

/** REST writes operators with a `$` (`{ mime: { $contains: 'image' } }`); the translator takes them without. */
export const dropOperatorPrefixes = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(dropOperatorPrefixes);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key.startsWith('$') ? key.slice(1) : key, dropOperatorPrefixes(inner)]));
};
