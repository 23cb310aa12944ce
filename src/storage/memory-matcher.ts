import type { Filter, StoredDocument } from './types';
import { createMatcher } from './embedded/create-matcher';

/** A store filter tested on values held in memory, with the embedded engine's matcher (its guard, operators and scripting lock). */
export const inMemoryMatcher = (filter: Filter): ((document: StoredDocument) => boolean) => createMatcher(filter);
