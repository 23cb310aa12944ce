import type { IndexSpec, StoredDocument } from '../types';
import type { CollectionTable } from './collection-table';

type Change =
  | { kind: 'document'; table: CollectionTable; key: number; previous: StoredDocument | undefined }
  | { kind: 'index'; table: CollectionTable; name: string };

/**
 * The writes of one transaction: applied to the in-memory tables at once (so the transaction reads its own
 * writes) and journaled, so they can be persisted together or undone together.
 */
export interface WriteBatch {
  put(table: CollectionTable, key: number, document: StoredDocument | undefined): void;
  addIndex(table: CollectionTable, spec: IndexSpec): void;
  /** final state of every document touched, once per document */
  touchedDocuments(): Array<{ table: CollectionTable; key: number; document: StoredDocument | undefined }>;
  /** tables whose index definitions changed */
  touchedIndexes(): CollectionTable[];
  /** a savepoint: how far the journal goes now */
  mark(): number;
  /** undoes every change made after `mark` (all of them by default) */
  rollback(mark?: number): void;
  /** set once the batch is persisted or rolled back: later writes must not join it */
  closed: boolean;
}

export function createWriteBatch(): WriteBatch {
  const journal: Change[] = [];
  return {
    closed: false,
    put(table, key, document) {
      const previous = table.put(key, document);
      journal.push({ kind: 'document', table, key, previous });
    },
    addIndex(table, spec) {
      table.addIndex(spec);
      journal.push({ kind: 'index', table, name: spec.name ?? '' });
    },
    touchedDocuments() {
      const seen = new Map<CollectionTable, Set<number>>();
      const touched: Array<{ table: CollectionTable; key: number; document: StoredDocument | undefined }> = [];
      for (const change of journal) {
        if (change.kind !== 'document') continue;
        const keys = seen.get(change.table) ?? new Set<number>();
        seen.set(change.table, keys);
        if (keys.has(change.key)) continue;
        keys.add(change.key);
        touched.push({ table: change.table, key: change.key, document: change.table.documents.get(change.key) });
      }
      return touched;
    },
    touchedIndexes() {
      return [...new Set(journal.filter((change) => change.kind === 'index').map((change) => change.table))];
    },
    mark: () => journal.length,
    rollback(mark = 0) {
      for (const change of journal.splice(mark).reverse()) {
        if (change.kind === 'document') change.table.put(change.key, change.previous);
        else change.table.removeIndex(change.name);
      }
    },
  };
}
