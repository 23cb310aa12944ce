import { cloneDocument } from '../clone-document';
import { assertSafeFilter } from '../filter-guard';
import { extendsIndex, normalizeIndexSpec, sameIndex, samePartition } from '../index-spec';
import type { Filter, IndexSpec, StoredDocument, UpdateSpec } from '../types';
import { applyUpdate, prepareUpdate } from './apply-update';
import { limitSql, selectionOf, type CollectionContext, type Row } from './collection-read';
import type { CollectionState } from './collection-state';
import type { EmbeddedDatabase } from './embedded-database';

/** The rows a write addresses, in natural order: with their documents for an update, keys alone for a delete. */
function matchingRows({ name, store }: CollectionContext, filter: Filter, limit: number, columns: 'd.k AS k, json(d.doc) AS doc' | 'd.k AS k'): Row[] {
  const database = store.database();
  const state = database.state(name);
  const selection = selectionOf(state, filter);
  if (!state.created) return [];
  const sql = `SELECT ${columns} ${selection.sql} ORDER BY d.k ${limitSql(limit)}`;
  return database.statement(sql).all(...selection.params) as Row[];
}

/** `apply` to each row a write addresses, in the write's transaction: how many there were. */
function writeMatching(
  context: CollectionContext,
  filter: Filter,
  limit: number,
  columns: 'd.k AS k, json(d.doc) AS doc' | 'd.k AS k',
  apply: (database: EmbeddedDatabase, state: CollectionState, row: Row) => void,
): Promise<number> {
  const { name, store } = context;
  return store.write(() => {
    const database = store.database();
    const state = database.state(name);
    const matched = matchingRows(context, filter, limit, columns);
    state.counts.writing(matched.length);
    for (const row of matched) apply(database, state, row);
    return matched.length;
  });
}

export async function update(context: CollectionContext, filter: Filter, spec: UpdateSpec, limit: number): Promise<number> {
  const prepared = prepareUpdate(spec);
  assertSafeFilter(filter);
  return writeMatching(context, filter, limit, 'd.k AS k, json(d.doc) AS doc', (database, state, row) => {
    const previous = JSON.parse(row.doc) as StoredDocument;
    database.replace(state, row.k, applyUpdate(previous, prepared), previous);
  });
}

export async function remove(context: CollectionContext, filter: Filter, limit: number): Promise<number> {
  assertSafeFilter(filter);
  return writeMatching(context, filter, limit, 'd.k AS k', (database, state, row) => database.remove(state, row.k));
}

export async function insert({ name, store }: CollectionContext, documents: StoredDocument[]): Promise<void> {
  const copies = documents.map(cloneDocument);
  return store.write(() => {
    const database = store.database();
    const state = database.state(name);
    state.counts.writing(copies.length);
    for (const document of copies) database.insert(state, document);
  });
}

/** Collection `createIndex` */
export async function createIndex({ name, store }: CollectionContext, index: IndexSpec): Promise<void> {
  const spec = normalizeIndexSpec(index);
  await store.write(() => {
    const database = store.database();
    const state = database.state(name);
    // a longer index of the same start serves this one's reads (and is kept); a shorter one is replaced
    if (state.indexes.some((candidate) => extendsIndex(candidate, spec))) return;
    for (const shorter of state.indexes.filter((candidate) => extendsIndex(spec, candidate))) database.dropIndex(state, shorter.name);
    const existing = state.indexes.find((candidate) => candidate.name === spec.name || sameIndex(candidate, spec));
    if (!existing) database.addIndex(state, spec);
    else if (!sameIndex(existing, spec) || existing.name !== spec.name) {
      throw new Error(`index ${spec.name} on ${name} conflicts with existing index ${existing.name}`);
    } else if (!samePartition(existing, spec)) {
      // a folder written before text indexes were split (or by other partitions): its entries, written again
      database.repartition(state, spec);
    }
    // also for an index older than the question
    database.trackOrder(state, spec);
  });
}
