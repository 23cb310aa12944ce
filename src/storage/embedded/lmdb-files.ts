import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { IndexSpec, StoredDocument } from '../types';
import type { WriteBatch } from './write-batch';

/** What the store keeps about a collection besides its documents. */
interface CatalogEntry {
  indexes: IndexSpec[];
}

type DocumentKey = [collection: string, key: number];
type CatalogKey = ['collection', string];

/**
 * The durable side of the embedded engine: one LMDB file, `<dataDir>/store.lmdb`. Documents of every
 * collection share one database keyed by `[collection, internal key]` (named databases per collection would hit
 * LMDB's fixed `maxDbs`, whose slots every transaction pays for); the catalog of collections and their index
 * definitions lives in a second one.
 */
export interface LmdbFiles {
  readCollection(name: string): { documents: Map<number, StoredDocument>; indexes: IndexSpec[] };
  catalogNames(): string[];
  hasDocuments(name: string): boolean;
  /** resolves once the batch is committed and synced to disk; all or nothing */
  commit(batch: WriteBatch): Promise<void>;
  close(): Promise<void>;
}

const LAST_KEY = Number.MAX_SAFE_INTEGER;

export function openLmdbFiles(dataDir: string): LmdbFiles {
  const env: RootDatabase = open({
    path: join(dataDir, 'store.lmdb'),
    // lmdb-js defaults to overlappingSync on Linux and macOS, where a write's promise resolves at commit and
    // the fsync happens later: a crash of the machine could lose an acknowledged write. Without it the commit
    // is synced before the promise resolves.
    overlappingSync: false,
    noSync: false,
    maxDbs: 4,
  });
  const documents: Database<StoredDocument, DocumentKey> = env.openDB({ name: 'documents', encoding: 'json' });
  const catalog: Database<CatalogEntry, CatalogKey> = env.openDB({ name: 'catalog', encoding: 'json' });

  const rangeOf = (name: string) => ({ start: [name, 0] as DocumentKey, end: [name, LAST_KEY] as DocumentKey });

  return {
    readCollection(name) {
      const loaded = new Map<number, StoredDocument>();
      for (const { key, value } of documents.getRange(rangeOf(name))) loaded.set(key[1], value);
      return { documents: loaded, indexes: catalog.get(['collection', name])?.indexes ?? [] };
    },
    catalogNames() {
      const names: string[] = [];
      for (const key of catalog.getKeys({ start: ['collection', ''], end: ['collection', '\uffff'] })) names.push(key[1]);
      return names;
    },
    hasDocuments(name) {
      return documents.getKeysCount({ ...rangeOf(name), limit: 1 }) > 0;
    },
    async commit(batch) {
      const changedDocuments = batch.touchedDocuments();
      const changedIndexes = batch.touchedIndexes();
      if (changedDocuments.length === 0 && changedIndexes.length === 0) return;
      const tables = new Set([...changedDocuments.map((change) => change.table), ...changedIndexes]);
      await env.transaction(() => {
        for (const table of tables) {
          const key: CatalogKey = ['collection', table.name];
          if (changedIndexes.includes(table) || !catalog.doesExist(key)) catalog.putSync(key, { indexes: [...table.indexes] });
        }
        for (const { table, key, document } of changedDocuments) {
          if (document) documents.putSync([table.name, key], document);
          else documents.removeSync([table.name, key]);
        }
      });
    },
    close: () => env.close(),
  };
}
