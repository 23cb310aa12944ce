import type { Models } from '../models/types';
import type { Store, StoredValue } from '../storage/types';

/**
 * Big integers are stored as decimal text, which both engines sort as text ("9" after "10"). Each
 * big-integer attribute of a content-type therefore has a sort key beside it, written with it:
 * text whose order is the numbers' order (sign, then digit count, then digits; the digits of a
 * negative number complemented so that larger magnitudes come first). Sorts read the key.
 */

/** The stored field holding `attribute`'s sort key (never part of an answer: it is no attribute). */
export const bigintSortField = (attribute: string): string => `_sort_${attribute}`;

const LENGTH_WIDTH = 4;
export const MAX_BIGINT_DIGITS = 10 ** LENGTH_WIDTH - 1;

/** For canonical text (see coerceScalar): `-12` → `0999887`, `7` → `100017`. */
const bigintSortKey = (canonical: string): string => {
  const negative = canonical.startsWith('-');
  const digits = negative ? canonical.slice(1) : canonical;
  if (!negative) return `1${String(digits.length).padStart(LENGTH_WIDTH, '0')}${digits}`;
  const complement = [...digits].map((digit) => String(9 - Number(digit))).join('');
  return `0${String(MAX_BIGINT_DIGITS - digits.length).padStart(LENGTH_WIDTH, '0')}${complement}`;
};

/** The canonical text a sort key was made from: `0999887` → `-12` (the least or greatest of an aggregation). */
export const bigintOfSortKey = (key: string): string => {
  if (key.startsWith('1')) return key.slice(1 + LENGTH_WIDTH);
  return `-${[...key.slice(1 + LENGTH_WIDTH)].map((digit) => String(9 - Number(digit))).join('')}`;
};

export const bigintSortValue = (value: StoredValue): string | null => (typeof value === 'string' ? bigintSortKey(value) : null);

/** Documents written before sort keys existed get theirs (idempotent: only rows whose key is missing are touched). */
export const backfillBigintSortKeys = async (models: Models, store: Store): Promise<void> => {
  for (const contentType of models.contentTypes.values()) {
    for (const [name, attribute] of Object.entries(contentType.attributes)) {
      if (attribute.type !== 'biginteger') continue;
      const collection = store.collection(contentType.collectionName);
      const field = bigintSortField(name);
      for (const row of await collection.find({ [name]: { $ne: null }, [field]: { $eq: null } }, { projection: ['id', name] })) {
        await collection.updateOne({ id: row.id }, { $set: { [field]: bigintSortValue(row[name]) } });
      }
    }
  }
};
