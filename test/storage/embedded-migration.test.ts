import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { openStore } from '../../src/storage/open-store';
import { UniqueConstraintError, type StoredDocument } from '../../src/storage/types';

/** A data folder as the LMDB engine (before the SQLite one) left it: documents by [collection, key], a catalog of indexes. */
async function writeLmdbFolder(dataDir: string, articles: StoredDocument[]): Promise<void> {
  const env = open({ path: join(dataDir, 'store.lmdb'), maxDbs: 4 });
  const documents = env.openDB({ name: 'documents', encoding: 'json' });
  const catalog = env.openDB({ name: 'catalog', encoding: 'json' });
  await env.transaction(() => {
    catalog.putSync(['collection', 'articles'], { indexes: [{ keys: [['documentId', 1]], unique: true, name: 'documentId_1' }] });
    catalog.putSync(['collection', 'folio_sequences'], { indexes: [{ keys: [['name', 1]], unique: true, name: 'name_1' }] });
    articles.forEach((article, index) => documents.putSync(['articles', index + 1], article));
    documents.putSync(['folio_sequences', 1], { name: 'articles', value: articles.length });
  });
  await env.close();
}

describe('a data folder of the LMDB engine', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-migration-'));
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('opens: its documents, indexes and counters move to SQLite once, the old file is kept aside', async () => {
    const articles = Array.from({ length: 2500 }, (_, n): StoredDocument => ({ id: n + 1, documentId: `doc${n}`, title: `title ${n}`, tags: [`t${n % 3}`] }));
    await writeLmdbFolder(dataDir, articles);
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
    let store;
    try {
      store = await openStore({ client: 'embedded' }, dataDir);
    } finally {
      process.stderr.write = write;
    }
    try {
      expect(written.join('')).toMatch(/moving the embedded store .* \(2501 documents, once\)/);
      expect(existsSync(join(dataDir, 'store.lmdb'))).toBe(false);
      expect(existsSync(join(dataDir, 'store.lmdb.migrated'))).toBe(true);
      const collection = store.collection('articles');
      expect(await collection.find({}, { sort: [['id', 1]] })).toEqual(articles);
      expect(await collection.countDocuments({ tags: 't1', title: { $regex: '^title 1' } })).toBe(articles.filter((article, n) => n % 3 === 1 && String(article.title).startsWith('title 1')).length);
      await expect(collection.insertOne({ documentId: 'doc7' })).rejects.toBeInstanceOf(UniqueConstraintError);
      expect(await store.nextSequence('articles')).toBe(2501);
    } finally {
      await store.close();
    }
    // the second start finds nothing left to move
    const reopened = await openStore({ client: 'embedded' }, dataDir);
    expect(await reopened.collection('articles').countDocuments({})).toBe(2500);
    await reopened.close();
  });
});
