import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/storage/open-store';
import type { SortSpec, Store, StoredDocument } from '../../src/storage/types';
import { describeStoreContract } from './store-contract';


describeStoreContract('embedded', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-embedded-'));
  return {
    open: () => openStore({ client: 'embedded' }, dataDir),
    atomicTransactions: true,
    async destroy() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});

// every read of a small collection answered from its rows held in memory (read-held), built at the first read after each commit
describeStoreContract('embedded, small collections held in memory', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-embedded-'));
  return {
    open: () => openStore({ client: 'embedded' }, dataDir, { holdAfterReads: 0 }),
    atomicTransactions: true,
    async destroy() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});

describe('embedded engine', () => {
  let dataDir: string;
  let store: Store;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-embedded-'));
    store = await openStore({ client: 'embedded' }, dataDir);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('ties keep insertion order (stable sort), natural order is insertion order', async () => {
    const items = store.collection('items');
    await items.insertMany([{ n: 1, g: 'b' }, { n: 2, g: 'a' }, { n: 3, g: 'b' }, { n: 4, g: 'a' }]);
    expect((await items.find({}, { sort: [['g', 1]] })).map((item) => item.n)).toEqual([2, 4, 1, 3]);
    expect((await items.find({}, { sort: [['g', -1]] })).map((item) => item.n)).toEqual([1, 3, 2, 4]);
    expect((await items.find({})).map((item) => item.n)).toEqual([1, 2, 3, 4]);
  });

  test('an empty array sorts before null and missing values', async () => {
    const items = store.collection('items');
    await items.insertMany([{ n: 1, v: null }, { n: 2, v: [] }, { n: 3 }, { n: 4, v: [0] }]);
    expect((await items.find({}, { sort: [['v', 1]] })).map((item) => item.n)).toEqual([2, 1, 3, 4]);
  });

  test('values of different types sort in MongoDB type order', async () => {
    const items = store.collection('items');
    await items.insertMany([{ n: 1, v: true }, { n: 2, v: 'a' }, { n: 3, v: { a: 1 } }, { n: 4, v: 2 }, { n: 5, v: null }]);
    expect((await items.find({}, { sort: [['v', 1]] })).map((item) => item.n)).toEqual([5, 4, 2, 3, 1]);
  });

  test('sorted reads stay right across inserts, updates, deletes and rollbacks', async () => {
    const items = store.collection('items');
    let seed = 7;
    const random = () => {
      seed = (seed * 1664525 + 1013904223) % 2 ** 32;
      return seed / 2 ** 32;
    };
    const score = () => (random() < 0.2 ? null : Math.floor(random() * 10));
    // score descending with null and missing last, then name (ASCII), then insertion order (a stable sort)
    const scoreOf = (document: StoredDocument) => (typeof document.score === 'number' ? document.score : -Infinity);
    const byName = (left: StoredDocument, right: StoredDocument) => (left.name === right.name ? 0 : (left.name as string) < (right.name as string) ? -1 : 1);
    const reference = (documents: StoredDocument[]) => [...documents].sort((left, right) => scoreOf(right) - scoreOf(left) || byName(left, right));
    const sort: SortSpec = [['score', -1], ['name', 1]];
    await items.insertMany(Array.from({ length: 200 }, (_, n) => ({ n, score: score(), name: `n${Math.floor(random() * 50)}` })));
    let next = 200;
    for (let step = 0; step < 150; step++) {
      const choice = random();
      const target = Math.floor(random() * next);
      if (choice < 0.3) await items.insertOne({ n: next++, score: score(), name: `n${Math.floor(random() * 50)}` });
      else if (choice < 0.6) await items.updateOne({ n: target }, { $set: { score: score() } });
      else if (choice < 0.75) await items.deleteOne({ n: target });
      else if (choice < 0.85) await items.updateMany({ n: { $lt: 100 } }, { $set: { name: `m${step}` } });
      else {
        await store
          .transaction(async () => {
            await items.updateOne({ n: target }, { $unset: ['score'] });
            await items.deleteOne({ n: target + 1 });
            throw new Error('undo');
          })
          .catch(() => undefined);
      }
      const skip = Math.floor(random() * 20);
      const expected = reference(await items.find({})).slice(skip, skip + 15).map((item) => item.n);
      expect([step, (await items.find({}, { sort, skip, limit: 15 })).map((item) => item.n)]).toEqual([step, expected]);
    }
  });

  test('an operation that fails inside a transaction is undone alone; the transaction goes on', async () => {
    const users = store.collection('users');
    await users.createIndex({ keys: [['email', 1]], unique: true });
    await users.insertOne({ email: 'a' });
    await store.transaction(async () => {
      await expect(users.insertMany([{ email: 'b' }, { email: 'a' }])).rejects.toThrow(/unique/);
      await users.insertOne({ email: 'c' });
    });
    expect((await users.find({}, { sort: [['email', 1]] })).map((user) => user.email)).toEqual(['a', 'c']);
  });

  test('insertMany is all or nothing', async () => {
    const users = store.collection('users');
    await users.createIndex({ keys: [['email', 1]], unique: true });
    await expect(users.insertMany([{ email: 'b' }, { email: 'b' }])).rejects.toThrow(/unique/);
    expect(await users.countDocuments({})).toBe(0);
  });

  test('a transaction holds off other writers until it ends', async () => {
    const items = store.collection('items');
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = store.transaction(async () => {
      await items.insertOne({ n: 1 });
      order.push('transaction wrote');
      await held;
      order.push('transaction ends');
    });
    await new Promise((resolve) => setImmediate(resolve));
    const outside = items.insertOne({ n: 2 }).then(() => order.push('outside wrote'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await Promise.all([transaction, outside]);
    expect(order).toEqual(['transaction wrote', 'transaction ends', 'outside wrote']);
  });

  test('nested transactions join the outer one and roll back with it', async () => {
    const items = store.collection('items');
    await expect(
      store.transaction(async () => {
        await store.transaction(() => items.insertOne({ n: 1 }));
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await items.countDocuments({})).toBe(0);
  });

  test('a rolled-back delete restores natural order and survives reopening', async () => {
    const items = store.collection('items');
    await items.insertMany([{ n: 1 }, { n: 2 }, { n: 3 }]);
    await expect(
      store.transaction(async () => {
        await items.deleteOne({ n: 1 });
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await items.find({})).map((item) => item.n)).toEqual([1, 2, 3]);
    await store.close();
    store = await openStore({ client: 'embedded' }, dataDir);
    expect((await store.collection('items').find({})).map((item) => item.n)).toEqual([1, 2, 3]);
  });

  test('a second store on the same data directory is refused while the first is open', async () => {
    await expect(openStore({ client: 'embedded' }, dataDir)).rejects.toThrow(/already open/);
  });

  test('refuses operations after close', async () => {
    await store.close();
    await expect(store.collection('items').find({})).rejects.toThrow(/closed/);
    store = await openStore({ client: 'embedded' }, dataDir);
  });

  test('a conflicting index definition is refused', async () => {
    const items = store.collection('items');
    await items.createIndex({ keys: [['slug', 1]] });
    await expect(items.createIndex({ keys: [['slug', 1]], unique: true })).rejects.toThrow(/conflicts/);
  });
});
