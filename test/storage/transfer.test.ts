import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { openStore } from '../../src/storage/open-store';
import type { Store, StoredDocument } from '../../src/storage/types';
import { exportStore } from '../../src/transfer/export-store';
import { importStore } from '../../src/transfer/import-store';

async function exportToText(store: Store, onProgress?: (collection: string, count: number) => void): Promise<string> {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  await exportStore(store, output, onProgress);
  output.end();
  return Buffer.concat(chunks).toString('utf8');
}

describe('export and import (embedded to embedded)', () => {
  const dirs: string[] = [];
  const stores: Store[] = [];
  const freshStore = async (): Promise<Store> => {
    const dataDir = mkdtempSync(join(tmpdir(), 'folio-transfer-'));
    dirs.push(dataDir);
    const store = await openStore({ client: 'embedded' }, dataDir);
    stores.push(store);
    return store;
  };

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const articlesOf = (count: number): StoredDocument[] =>
    Array.from({ length: count }, (_, n) => ({
      id: n + 1,
      documentId: `doc${n}`,
      title: n % 7 === 0 ? `Ünïcödé ${n} "quoted"\nline` : `title ${n}`,
      publishedAt: n % 2 === 0 ? null : '2024-01-01T00:00:00.000Z',
      blocks: [{ __component: 'shared.quote', body: 'x'.repeat(n % 50), tags: ['a', 'b'] }],
      seo: { meta: { title: `seo ${n}` } },
    }));

  test('round trip keeps every document, index and sequence', async () => {
    const source = await freshStore();
    const articles = source.collection('articles');
    await articles.createIndex({ keys: [['documentId', 1]], unique: true });
    await articles.createIndex({ keys: [['publishedAt', -1]] });
    await articles.insertMany(articlesOf(1234));
    await source.collection('up_users').insertOne({ id: 1, email: 'a@example.com', blocked: false });
    for (let i = 0; i < 40; i++) await source.nextSequence('articles');
    await source.nextSequence('up_users');

    const progress: Array<[string, number]> = [];
    const text = await exportToText(source, (collection, count) => progress.push([collection, count]));
    expect(progress).toContainEqual(['articles', 1234]);

    const target = await freshStore();
    const imported: Array<[string, number]> = [];
    const summary = await importStore(target, Readable.from([text]), (collection, count) => imported.push([collection, count]));
    expect(summary).toEqual({ collections: 3, documents: 1234 + 1 + 2 });
    expect(imported.filter(([collection]) => collection === 'articles').map(([, count]) => count)).toEqual([500, 1000, 1234]);

    expect(await target.listCollections()).toEqual(expect.arrayContaining(['articles', 'up_users', 'folio_sequences']));
    for (const name of ['articles', 'up_users']) {
      expect(await target.collection(name).find({}, { sort: [['id', 1]] })).toEqual(await source.collection(name).find({}, { sort: [['id', 1]] }));
    }
    expect(await target.collection('articles').listIndexes()).toEqual(await source.collection('articles').listIndexes());
    await expect(target.collection('articles').insertOne({ documentId: 'doc1' })).rejects.toThrow(/unique/);
    expect(await target.nextSequence('articles')).toBe(41);
    expect(await target.nextSequence('up_users')).toBe(2);
    expect(await target.nextSequence('never_used')).toBe(1);
  });

  test('exporting the import gives the same file', async () => {
    const source = await freshStore();
    await source.collection('articles').insertMany(articlesOf(20));
    await source.nextSequence('articles');
    const first = await exportToText(source);
    const target = await freshStore();
    await importStore(target, Readable.from([first]));
    expect(await exportToText(target)).toBe(first);
  });

  test('the file is newline-delimited JSON with a header, collection lines, wrapped documents and an end line', async () => {
    const source = await freshStore();
    await source.collection('tags').insertMany([{ name: 'a' }, { name: 'b' }]);
    const lines = (await exportToText(source)).trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      { format: 'folio-export', version: 1, engine: 'embedded' },
      { collection: 'tags', indexes: [] },
      { document: { name: 'a' } },
      { document: { name: 'b' } },
      { end: true, collections: 1, documents: 2 },
    ]);
  });

  test('reads input that arrives in arbitrary chunks', async () => {
    const source = await freshStore();
    await source.collection('articles').insertMany(articlesOf(50));
    const text = await exportToText(source);
    const chunks = text.match(/[\s\S]{1,7}/g)!;
    const target = await freshStore();
    expect(await importStore(target, Readable.from(chunks))).toEqual({ collections: 1, documents: 50 });
  });

  test('refuses to import into a collection that holds documents, unless replacing', async () => {
    const source = await freshStore();
    await source.collection('tags').insertMany([{ name: 'a' }]);
    const text = await exportToText(source);
    const target = await freshStore();
    await target.collection('tags').insertOne({ name: 'old' });
    await expect(importStore(target, Readable.from([text]))).rejects.toThrow(/already holds documents/);
    await importStore(target, Readable.from([text]), undefined, { replace: true });
    expect(await target.collection('tags').find({})).toEqual([{ name: 'a' }]);
  });

  test('detects a truncated or foreign file', async () => {
    const source = await freshStore();
    await source.collection('tags').insertMany([{ name: 'a' }, { name: 'b' }]);
    const text = await exportToText(source);
    const truncated = text.split('\n').slice(0, 3).join('\n');
    await expect(importStore(await freshStore(), Readable.from([truncated]))).rejects.toThrow(/truncated/);
    await expect(importStore(await freshStore(), Readable.from(['{"collection":"x","indexes":[]}\n']))).rejects.toThrow(/not a Folio export/);
    await expect(importStore(await freshStore(), Readable.from(['not json\n']))).rejects.toThrow(/not JSON/);
    await expect(importStore(await freshStore(), Readable.from(['']))).rejects.toThrow(/empty/);
  });
});
