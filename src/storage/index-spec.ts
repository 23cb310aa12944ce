import type { IndexSpec } from './types';

/** MongoDB's default name for an index on `keys` (`title_1_publishedAt_-1`). */
function defaultIndexName(keys: IndexSpec['keys'], text: boolean): string {
  return text ? `${keys[0][0]}_text` : keys.map(([field, direction]) => `${field}_${direction}`).join('_');
}

export type NormalizedIndexSpec = Required<Omit<IndexSpec, 'text' | 'partition'>> & { text?: true; partition?: string[] };

const validField = (field: unknown): field is string => typeof field === 'string' && field !== '' && !field.startsWith('$');

/** The spec with its name filled in and only the fields the engines understand, validated. */
export function normalizeIndexSpec(spec: IndexSpec): NormalizedIndexSpec {
  if (!Array.isArray(spec.keys) || spec.keys.length === 0) throw new Error('an index needs at least one key');
  if (spec.text && (spec.keys.length !== 1 || spec.unique)) throw new Error('a text index has one key and is not unique');
  for (const [field, direction] of spec.keys) {
    if (!validField(field) || (direction !== 1 && direction !== -1)) {
      throw new Error(`invalid index key ${JSON.stringify([field, direction])}`);
    }
  }
  const normalized: NormalizedIndexSpec = {
    keys: spec.keys.map(([field, direction]) => [field, direction]),
    unique: spec.unique === true,
    name: spec.name ?? defaultIndexName(spec.keys, spec.text === true),
  };
  if (spec.text) normalized.text = true;
  if (spec.partition !== undefined && spec.partition.length > 0) {
    if (!spec.text) throw new Error('only a text index is partitioned');
    const fields = spec.partition;
    if (!fields.every((field) => validField(field) && !field.includes('.')) || new Set(fields).size !== fields.length) {
      throw new Error(`invalid index partition ${JSON.stringify(fields)}: distinct top-level fields`);
    }
    normalized.partition = [...fields];
  }
  return normalized;
}

/** Two specs that would build the same index (names and partitions aside). */
export function sameIndex(left: IndexSpec, right: IndexSpec): boolean {
  return (
    (left.unique === true) === (right.unique === true) &&
    (left.text === true) === (right.text === true) &&
    left.keys.length === right.keys.length &&
    left.keys.every(([field, direction], i) => right.keys[i][0] === field && right.keys[i][1] === direction)
  );
}

/** Two text indexes split by the same fields (none for either: the same). */
export function samePartition(left: IndexSpec, right: IndexSpec): boolean {
  const fields = (spec: IndexSpec): string => JSON.stringify(spec.partition ?? []);
  return fields(left) === fields(right);
}

/**
 * Whether `longer` serves every read `shorter` serves and more: both plain (neither unique nor text) and
 * `shorter`'s keys the start of `longer`'s. createIndex keeps the longer of two such indexes, not both.
 */
export function extendsIndex(longer: IndexSpec, shorter: IndexSpec): boolean {
  const plain = (spec: IndexSpec): boolean => spec.unique !== true && spec.text !== true;
  return (
    plain(longer) &&
    plain(shorter) &&
    longer.keys.length > shorter.keys.length &&
    shorter.keys.every(([field, direction], i) => longer.keys[i][0] === field && longer.keys[i][1] === direction)
  );
}
