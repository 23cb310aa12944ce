import type { Models } from '../models/types';
import { FILE_CONTENT_TYPE } from './file-model';
import type { Filter } from '../storage/types';
import { createFilterTranslator } from '../query/translate-filters';

/**
 * Filters and sort over file records, through the same translator as documents: the file model
 * is described as a content-type whose attributes are the filterable fields of
 * `UploadFileFiltersInput` (plus `id`, which REST filters by).
 */

/** `filters` (GraphQL operators, without REST's `$`) → a store filter on the files collection. */
export const createFileFilterTranslator = (models: Models, maxStringLength: number) => {
  const translator = createFilterTranslator({
    models,
    maxStringLength,
    lookup: () => Promise.reject(new Error('file records have no relations to look up')),
  });
  return (filters: unknown): Promise<Filter> => translator.translate(FILE_CONTENT_TYPE, filters);
};
