import { normalizeIndexSpec } from './index-spec';

/**
 * Both engines keep counters as documents `{ name, value }` in this collection, unique on `name`, so that an
 * export carries them like any other collection and an import restores them.
 */
export const SEQUENCES_COLLECTION = 'folio_sequences';

export const SEQUENCES_INDEX = normalizeIndexSpec({ keys: [['name', 1]], unique: true });

export function assertSequenceName(name: string): void {
  if (typeof name !== 'string' || name === '') throw new Error('a sequence needs a non-empty name');
}
