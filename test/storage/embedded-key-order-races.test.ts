import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMingoMatcher } from '../../src/storage/create-matcher';
import { sortEntries } from '../../src/storage/embedded/sort-documents';
import { openStore } from '../../src/storage/open-store';
import type { Collection, Filter, SortSpec, Store, StoredDocument } from '../../src/storage/types';
import { setTimeout as sleep } from 'node:timers/promises';
import { heldTransaction } from '../support/held-transaction';

/**
 * A search's page read in key order when its sort leads with a unique field that ascends with the rows' keys:
 * open transactions that end the order, reads whose catalog changes twice while they wait for a reader thread,
 * and random writes of every kind against the reference.
 */
describe('embedded engine: key order of an ascending unique field, races and random writes', () => {
  let dataDir: string;
  let store: Store;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-key-order-races-'));
    store = await openStore({ client: 'embedded' }, dataDir);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const items = (): Collection => store.collection('items');

  async function prepare(count: number): Promise<void> {
    await items().createIndex({ keys: [['id', 1]], unique: true });
    await items().createIndex({ keys: [['title', 1]], text: true });
    await items().insertMany(Array.from({ length: count }, (_, index) => ({ id: index + 1, title: 'alpha' })));
  }

  /**
   * The reference over what the store holds now (read back in natural order, once): each filter's matches as it
   * evaluates them, in a sort's order. Read once per step of the random writes, as no write runs while its searches do.
   */
  async function referenceNow(): Promise<(filter: Filter, sort: SortSpec) => unknown[]> {
    const stored = await items().find({});
    return (filter, sort) => {
      const matches = createMingoMatcher(filter);
      const matched = stored.map((document, index): [number, StoredDocument] => [index, document]).filter(([, document]) => matches(document));
      return sortEntries(matched, sort).map((index) => stored[index].id);
    };
  }

  test('a transaction inserting a row below the last id: reads outside it see the last commit, not its row', async () => {
    await prepare(5);
    const { started, go, done } = heldTransaction(
      store,
      // below the last id: the field stops ascending
      () => items().insertOne({ id: 0, title: 'alpha' }),
      async () => {
        throw new Error('undone');
      },
    );
    await started;
    const listed = (await items().find({})).map((document) => document.id);
    const counted = await items().countDocuments({});
    const searched = (await items().find({ title: { $regex: 'alp', $options: 'i' } }, { sort: [['id', 1]] })).map((document) => document.id);
    go();
    await expect(done).rejects.toThrow('undone');
    // document 0 was never committed
    expect({ listed, counted, searched }).toEqual({ listed: [1, 2, 3, 4, 5], counted: 5, searched: [1, 2, 3, 4, 5] });
  });

  test('a transaction changing an id: reads outside it see the last commit, not its update', async () => {
    await prepare(5);
    const { started, go, done } = heldTransaction(
      store,
      () => items().updateOne({ id: 3 }, { $set: { id: 30 } }),
      async () => {
        throw new Error('undone');
      },
    );
    await started;
    const listed = (await items().find({})).map((document) => document.id);
    go();
    await expect(done).rejects.toThrow('undone');
    expect(listed).toEqual([1, 2, 3, 4, 5]);
  });

  /**
   * Every reader thread kept busy for about a second by a scan (a RegExp that backtracks on one document), the
   * last one queued behind the read `start` sends: its read again, sent once its first answer came, waits there.
   * `between` runs meanwhile, after that second compilation and before its answer.
   */
  async function readAgainAfter<T>(start: () => Promise<T>, first: () => Promise<unknown>, between: () => Promise<unknown>): Promise<T> {
    const slow = store.collection('slow');
    await slow.insertOne({ s: 'a'.repeat(24) });
    const readers = Math.min(availableParallelism(), 8);
    // the threads started
    await Promise.all(Array.from({ length: readers }, (_, index) => slow.countDocuments({ s: { $regex: `warm${index}` } })));
    const read = start();
    const scans = Array.from({ length: readers }, (_, index) => slow.countDocuments({ s: { $regex: `^(a|a)+${'bcdefghi'[index]}$` } }));
    // a change of the catalog before the first answer: the read is compiled again
    await first();
    await sleep(300);
    await between();
    const answered = await read;
    await Promise.all(scans);
    return answered;
  }

  test('a find read again after a change of the catalog, while the field then stops ascending: still in id order', async () => {
    await prepare(100);
    const filter = { title: { $regex: 'alp', $options: 'i' } };
    const found = await readAgainAfter(
      () => items().find(filter, { sort: [['id', -1]], limit: 5, projection: ['id'] }),
      // a field's first value: a change of the catalog
      () => items().insertOne({ id: 101, title: 'beta', extra: true }),
      // below the last id: the field stops ascending
      () => items().insertOne({ id: 0, title: 'alpha' }),
    );
    // id 0 comes last sorted by id descending, whichever commit the read saw
    expect(found.map((document) => document.id)).toEqual([100, 99, 98, 97, 96]);
  });

  test('a search read again after a change of the catalog, while its index is then split by other fields: keeps its equality', async () => {
    await items().createIndex({ keys: [['title', 1]], text: true, partition: ['s'] });
    await items().insertMany(Array.from({ length: 200 }, (_, id) => ({ id, title: 'alpha', s: id % 2 === 0 ? 'a' : 'b', l: id % 4 < 2 ? 'x' : 'y' })));
    const found = await readAgainAfter(
      () => items().find({ title: { $regex: 'alp', $options: 'i' }, s: 'a' }, { projection: ['id', 's'] }),
      () => items().insertOne({ id: 1000, title: 'beta', s: 'c', extra: true }),
      () => items().createIndex({ keys: [['title', 1]], text: true, partition: ['l'] }),
    );
    expect({ size: found.length, others: found.filter((document) => document.s !== 'a').length }).toEqual({ size: 100, others: 0 });
  });

  /**
   * Random writes of every kind the store takes (batches, updates of the field and of others, deletes, undone
   * transactions, savepoints undone inside one, reopening), each followed by searches sorted on the field,
   * against the reference over what the store holds.
   */
  test.each([1, 2, 3, 4])('random writes, seed %i: searches sorted by the field agree with the reference', async (seed) => {
    let state = seed * 7919;
    const random = (): number => {
      state = (state * 1664525 + 1013904223) % 2 ** 32;
      return state / 2 ** 32;
    };
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
    const WORDS = ['alpha', 'beta', 'gamma', 'delta'];
    let next = 1;
    const documentOf = (id: unknown): StoredDocument => {
      const document: StoredDocument = { title: `${pick(WORDS)} ${pick(WORDS)}`, body: pick(WORDS), status: pick(['draft', 'published']) };
      if (id !== undefined) document.id = id as number;
      return document;
    };
    const ascending = (): StoredDocument => documentOf((next += 1 + Math.floor(random() * 3)));
    const ensureIndexes = async (): Promise<void> => {
      await items().createIndex({ keys: [['id', 1]], unique: true });
      await items().createIndex({ keys: [['title', 1]], text: true });
      await items().createIndex({ keys: [['body', 1]], text: true, partition: ['status'] });
    };
    await ensureIndexes();
    await items().insertMany(Array.from({ length: 30 }, ascending));
    const failures: string[] = [];
    const attempt = async (write: () => Promise<unknown>): Promise<void> => {
      try {
        await write();
      } catch {
        // a unique violation or an undone transaction: nothing of it stays
      }
    };
    const FILTERS: Filter[] = [
      { title: { $regex: 'alp', $options: 'i' } },
      { body: { $regex: 'ETA', $options: 'i' }, status: 'published' },
      { body: { $regex: 'amm', $options: 'i' }, status: { $eq: 'draft' } },
      { body: { $regex: 'elt', $options: 'i' } },
      { $or: [{ title: { $regex: 'gam', $options: 'i' } }] },
      { $or: [{ title: { $regex: 'gam', $options: 'i' } }, { body: { $regex: 'bet', $options: 'i' } }] },
      { $and: [{ status: 'draft' }, { $and: [{ body: { $regex: 'lph', $options: 'i' } }] }] },
      { title: { $regex: 'alp', $options: 'i' }, id: { $gte: 10 } },
    ];
    for (let step = 0; step < 60; step++) {
      const roll = random();
      const last = (): number => next;
      if (roll < 0.3) await attempt(() => items().insertOne(ascending()));
      else if (roll < 0.45) await attempt(() => items().insertMany(Array.from({ length: 1 + Math.floor(random() * 4) }, ascending)));
      else if (roll < 0.5) {
        // a batch with a duplicate: none of it is inserted
        const batch = [ascending(), ascending()];
        await attempt(() => items().insertMany([...batch, { ...batch[0], id: batch[0].id }]));
      } else if (roll < 0.6) await attempt(() => items().updateOne({ id: pick([last(), 5, 10]) }, { $set: { title: `${pick(WORDS)} ${pick(WORDS)}`, status: pick(['draft', 'published']) } }));
      else if (roll < 0.65) await attempt(() => items().updateMany({ status: 'draft' }, { $set: { body: pick(WORDS) } }));
      else if (roll < 0.72) await attempt(() => items().deleteOne({ id: { $gte: last() - 3 } }));
      else if (roll < 0.78)
        // undone: its rows, below or above the last, leave no trace
        await attempt(() =>
          store.transaction(async () => {
            await items().insertOne(ascending());
            await items().insertOne(documentOf(pick([0, last() + 100, 'x', undefined])));
            throw new Error('undone');
          }),
        );
      else if (roll < 0.84)
        // a savepoint undone inside a transaction that commits
        await attempt(() =>
          store.transaction(async () => {
            await items().insertOne(ascending());
            await attempt(() => items().insertMany([ascending(), documentOf(1)]));
            await items().insertOne(ascending());
          }),
        );
      else if (roll < 0.88) {
        await store.close();
        store = await openStore({ client: 'embedded' }, dataDir);
        await ensureIndexes();
      } else if (roll < 0.9) {
        // the rare way to stop ascending: after it, nothing may change but the path taken
        await attempt(() => items().insertOne(documentOf(pick([0, 'x', undefined, last() - 1]))));
      } else if (roll < 0.92) await attempt(() => items().updateOne({ id: pick([last(), 3]) }, pick([{ $set: { id: -5 } }, { $unset: ['id'] }, { $set: { id: 3 } }])));
      else await attempt(() => items().deleteMany({ id: { $gte: last() - 5 } }));
      const reference = await referenceNow();
      // no write runs while this step's searches do: they are sent together, each checked against the reference
      const searches: Promise<void>[] = [];
      for (const filter of FILTERS) {
        // a count depends on the filter alone: once per filter, not per sort and page
        searches.push(
          items()
            .countDocuments(filter)
            .then((total) => {
              const expected = reference(filter, []).length;
              if (total !== expected) failures.push(`count step ${step} ${JSON.stringify(filter)}: ${total} for ${expected}`);
            }),
        );
        for (const sort of [[['id', 1]], [['id', -1]], [['id', -1], ['title', 1]]] as SortSpec[]) {
          const all = reference(filter, sort);
          for (const skip of [0, 2, 40])
            searches.push(
              (async () => {
                const want = all.slice(skip, skip + 5);
                const options = { sort, skip, limit: 5, projection: ['id'] };
                const [found, paged, first] = await Promise.all([
                  items().find(filter, options).then((documents) => documents.map((document) => document.id)),
                  items().findPage(filter, options),
                  items().findOne(filter, options).then((document) => document?.id),
                ]);
                const where = `step ${step} ${JSON.stringify({ filter, sort, skip })}`;
                if (JSON.stringify(found) !== JSON.stringify(want)) failures.push(`find ${where}: ${JSON.stringify(found)} for ${JSON.stringify(want)}`);
                if (JSON.stringify(paged.documents.map((document) => document.id)) !== JSON.stringify(want)) failures.push(`findPage ${where}: ${JSON.stringify(paged.documents.map((document) => document.id))} for ${JSON.stringify(want)}`);
                if (first !== want[0]) failures.push(`findOne ${where}: ${JSON.stringify(first)} for ${JSON.stringify(want[0])}`);
                if (paged.total !== all.length) failures.push(`total ${where}: ${paged.total} for ${all.length}`);
              })(),
            );
        }
      }
      await Promise.all(searches);
      if (failures.length > 0) break;
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });
});
