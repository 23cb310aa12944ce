import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/storage/open-store';
import type { Store } from '../../src/storage/types';

/** The embedded engine remembers counts and lookups between writes: they must never go stale. */

let root: string;
let store: Store;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-caches-'));
  store = await openStore({ client: 'embedded', options: {} }, root);
});
afterAll(async () => {
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

test('counts and query results follow inserts, updates, deletes and rolled-back transactions', async () => {
  const items = store.collection('items');
  const published = { status: 'published' };
  expect(await items.countDocuments(published)).toBe(0);
  await items.insertMany([{ id: 1, status: 'published' }, { id: 2, status: 'draft' }]);
  expect(await items.countDocuments(published)).toBe(1);
  expect((await items.find(published, { sort: [['id', -1]] })).map((row) => row.id)).toEqual([1]);
  await items.updateOne({ id: 2 }, { $set: { status: 'published' } });
  expect(await items.countDocuments(published)).toBe(2);
  expect((await items.find(published, { sort: [['id', -1]] })).map((row) => row.id)).toEqual([2, 1]);
  await expect(
    store.transaction(async () => {
      await items.deleteOne({ id: 1 });
      expect(await items.countDocuments(published)).toBe(1);
      expect((await items.find(published, { sort: [['id', -1]] })).map((row) => row.id)).toEqual([2]);
      throw new Error('roll back');
    }),
  ).rejects.toThrow('roll back');
  expect(await items.countDocuments(published)).toBe(2);
  expect((await items.find(published, { sort: [['id', -1]] })).map((row) => row.id)).toEqual([2, 1]);
  expect((await items.find({ id: 1 })).map((row) => row.status)).toEqual(['published']);
  await items.deleteMany({ id: 2 });
  expect(await items.countDocuments(published)).toBe(1);
  expect(await items.find({ id: 2 })).toEqual([]);
});
