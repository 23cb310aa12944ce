import { Query } from 'mingo';
import type { Filter, StoredDocument } from './types';
import { assertSafeFilter } from './filter-guard';

/** A store filter tested on values held in memory, under the guard and scripting lock the embedded engine applies. */
export const inMemoryMatcher = (filter: Filter): ((document: StoredDocument) => boolean) => {
  assertSafeFilter(filter);
  const query = new Query(filter, { scriptEnabled: false });
  return (document) => query.test(document);
};
