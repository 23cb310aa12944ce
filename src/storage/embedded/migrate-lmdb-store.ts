import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type * as Lmdb from 'lmdb';
import type { IndexSpec, StoredDocument } from '../types';
import type { EmbeddedDatabase } from './embedded-database';

type DocumentKey = [collection: string, key: number];
type CatalogKey = ['collection', string];

const BATCH = 1000;

/**
 * Data folders written before the SQLite engine hold `store.lmdb` (one LMDB file: documents keyed by
 * `[collection, key]`, a catalog of index specs). At the first start on such a folder its collections are copied
 * into the new file, in natural order with their indexes, and the old file is kept as `store.lmdb.migrated`.
 */
export function migrateLmdbStore(dataDir: string, database: EmbeddedDatabase): void {
  const oldFile = join(dataDir, 'store.lmdb');
  if (!existsSync(oldFile)) return;
  // only such folders need the LMDB binding
  const { open } = require('lmdb') as typeof Lmdb;
  const env = open({ path: oldFile, maxDbs: 4, readOnly: true });
  try {
    const documents = env.openDB<StoredDocument, DocumentKey>({ name: 'documents', encoding: 'json' });
    const catalog = env.openDB<{ indexes: IndexSpec[] }, CatalogKey>({ name: 'catalog', encoding: 'json' });
    const names = [...catalog.getKeys({ start: ['collection', ''], end: ['collection', '\uffff'] })].map((key) => key[1]);
    const total = documents.getKeysCount();
    process.stderr.write(`folio: moving the embedded store of ${dataDir} to SQLite (${total} documents, once)…\n`);
    let copied = 0;
    for (const name of names) {
      const state = database.state(name);
      database.sqlite.transaction(() => {
        for (const spec of catalog.get(['collection', name])?.indexes ?? []) database.addIndex(state, spec);
      })();
      let batch: StoredDocument[] = [];
      const flush = (): void => {
        database.sqlite.transaction(() => {
          for (const document of batch) database.insert(state, document);
        })();
        copied += batch.length;
        batch = [];
      };
      for (const { value } of documents.getRange({ start: [name, 0], end: [name, Number.MAX_SAFE_INTEGER] })) {
        batch.push(value);
        if (batch.length === BATCH) flush();
      }
      flush();
    }
    process.stderr.write(`folio: moved ${copied} documents; the old file is kept as store.lmdb.migrated\n`);
  } finally {
    env.close();
  }
  renameSync(oldFile, `${oldFile}.migrated`);
  rmSync(`${oldFile}-lock`, { force: true });
}
