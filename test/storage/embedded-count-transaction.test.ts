import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/storage/open-store';
import type { Store } from '../../src/storage/types';

/**
 * A total counted on a reader thread while a transaction holds uncommitted writes misses them: it must
 * not be remembered, or it stays wrong after the commit (writes move remembered totals as they are
 * made, not when they commit).
 */

let dataDir: string;
let store: Store;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'folio-count-tx-'));
  store = await openStore({ client: 'embedded' }, dataDir);
  await store.collection('notes').insertMany([{ id: 1, title: 'ab one' }, { id: 2, title: 'ab two' }]);
});
afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a heavy count taken during an open transaction is not kept past its commit', async () => {
  const notes = store.collection('notes');
  // a two-letter literal is decided document by document: on a reader thread, which sees the last commit
  const heavy = { title: { $regex: 'ab', $options: 'i' } };
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let inserted!: () => void;
  const written = new Promise<void>((resolve) => (inserted = resolve));
  const transaction = store.transaction(async () => {
    await notes.insertOne({ id: 3, title: 'ab three' });
    inserted();
    await held;
  });
  await written;
  expect(await notes.countDocuments(heavy)).toBe(2);
  release();
  await transaction;
  expect(await notes.countDocuments(heavy)).toBe(3);
});
