import type { Filter, StoredDocument, StoredValue } from '../types';

/**
 * Equality lookups on top-level fields, built the first time a filter asks for one and kept up to date by
 * every write: a find by `id`, `documentId` or a relation's documentIds reads the few documents it names
 * instead of testing the whole collection. An array field is indexed by each of its elements, which is what
 * MongoDB's equality on arrays means. The lookup only narrows the candidates; the full filter still decides.
 */

type Key = string | number | boolean;

// a lookup leaving more candidates than this share of the collection loses to a scan (over a sorted view)
const SELECTIVE_SHARE = 0.25;

export interface FieldLookups {
  /** internal keys that may match `filter`, in key order, or undefined when no lookup narrows it enough */
  candidates(filter: Filter): number[] | undefined;
  changed(key: number, previous: StoredDocument | undefined, next: StoredDocument | undefined): void;
}

const isKey = (value: unknown): value is Key => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

const keysOf = (value: StoredValue | undefined): Key[] => (Array.isArray(value) ? value.filter(isKey) : isKey(value) ? [value] : []);

/** The values an equality or `$in` condition on one field asks for, when every one of them can be looked up. */
const wantedValues = (condition: unknown): Key[] | undefined => {
  if (isKey(condition)) return [condition];
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) return undefined;
  const operators = Object.keys(condition);
  if (operators.length !== 1) return undefined;
  const operand = (condition as Record<string, unknown>)[operators[0]];
  if (operators[0] === '$eq' && isKey(operand)) return [operand];
  if (operators[0] === '$in' && Array.isArray(operand) && operand.every(isKey)) return operand;
  return undefined;
};

interface Clause {
  field: string;
  values: Key[];
}

/** The top-level clauses of the filter (its own, and those of its `$and`) that a lookup can serve. */
const lookupClauses = (filter: Filter, found: Clause[] = []): Clause[] => {
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(condition)) {
      for (const part of condition) if (typeof part === 'object' && part !== null) lookupClauses(part as Filter, found);
      continue;
    }
    if (field.startsWith('$') || field.includes('.')) continue;
    const values = wantedValues(condition);
    if (values) found.push({ field, values });
  }
  return found;
};

export function createFieldLookups(documents: ReadonlyMap<number, StoredDocument>): FieldLookups {
  const byField = new Map<string, Map<Key, Set<number>>>();

  const add = (index: Map<Key, Set<number>>, value: Key, key: number) => {
    let keys = index.get(value);
    if (!keys) index.set(value, (keys = new Set()));
    keys.add(key);
  };

  const build = (field: string): Map<Key, Set<number>> => {
    const index = new Map<Key, Set<number>>();
    for (const [key, document] of documents) for (const value of keysOf(document[field])) add(index, value, key);
    byField.set(field, index);
    return index;
  };

  return {
    candidates(filter) {
      let best: { sets: Set<number>[]; size: number } | undefined;
      for (const { field, values } of lookupClauses(filter)) {
        const index = byField.get(field) ?? build(field);
        const sets = values.flatMap((value) => index.get(value) ?? []);
        const size = sets.reduce((total, set) => total + set.size, 0);
        if (!best || size < best.size) best = { sets, size };
      }
      if (!best || best.size > documents.size * SELECTIVE_SHARE) return undefined;
      const keys = new Set<number>();
      for (const set of best.sets) for (const key of set) keys.add(key);
      return [...keys].sort((left, right) => left - right);
    },
    changed(key, previous, next) {
      for (const [field, index] of byField) {
        for (const value of keysOf(previous?.[field])) index.get(value)?.delete(key);
        for (const value of keysOf(next?.[field])) add(index, value, key);
      }
    },
  };
}
