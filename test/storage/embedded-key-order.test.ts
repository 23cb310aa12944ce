import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createMingoMatcher } from '../../src/storage/create-matcher';
import { sortEntries } from '../../src/storage/embedded/sort-documents';
import { openStore } from '../../src/storage/open-store';
import type { Collection, Filter, SortSpec, Store, StoredDocument } from '../../src/storage/types';

const WORDS = ['alpha', 'Beta', 'gamma', 'DELTA', 'zeta', 'eta'];

/**
 * A unique numeric field whose values ascend with the insertion order (`id`) sorts as the rows' key order, and
 * a search whose matches are all its selection holds reads its page in that order from the trigram index.
 * Every way the field stops ascending must end that, or pages come out of order.
 */
describe('embedded engine: a unique field that ascends with the insertion order', () => {
  let dataDir: string;
  let store: Store;
  const held: StoredDocument[] = [];
  let seed = 5;
  const random = (): number => {
    seed = (seed * 1664525 + 1013904223) % 2 ** 32;
    return seed / 2 ** 32;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-key-order-'));
    store = await openStore({ client: 'embedded' }, dataDir);
    held.length = 0;
  });

  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const items = (): Collection => store.collection('items');

  async function prepare(count: number): Promise<void> {
    await items().createIndex({ keys: [['id', 1]], unique: true });
    await items().createIndex({ keys: [['title', 1]], text: true, partition: ['status'] });
    await items().createIndex({ keys: [['slug', 1]], text: true });
    const documents = Array.from({ length: count }, (_, id): StoredDocument => ({ id: id * 2, title: `${pick(WORDS)} ${pick(WORDS)}`, slug: pick(WORDS), status: pick(['draft', 'published']) }));
    for (let start = 0; start < documents.length; start += 500) await items().insertMany(documents.slice(start, start + 500));
    held.push(...documents);
  }

  async function insert(document: StoredDocument): Promise<void> {
    await items().insertOne(document);
    held.push(document);
  }

  const SEARCHES: Filter[] = [
    { title: { $regex: 'ETA', $options: 'i' }, status: 'published' },
    { title: { $regex: 'lph', $options: 'i' }, status: 'draft' },
    { title: { $regex: 'amm', $options: 'i' } },
    { slug: { $regex: 'ELT', $options: 'i' } },
    { title: { $regex: 'eta', $options: 'i' }, status: 'published', id: { $gte: 100 } },
  ];

  /** every search, sorted by id both ways, paged: as the reference evaluates it */
  async function disagreements(): Promise<string[]> {
    const found: string[] = [];
    for (const filter of SEARCHES)
      for (const sort of [[['id', 1]], [['id', -1]], [['id', -1], ['title', 1]]] as SortSpec[])
        for (const skip of [0, 3, 40]) {
          const matches = createMingoMatcher(filter);
          const matched = held.map((document, index): [number, StoredDocument] => [index, document]).filter(([, document]) => matches(document));
          const expected = sortEntries(matched, sort).slice(skip, skip + 10).map((index) => held[index].id);
          const page = await items().findPage(filter, { sort, skip, limit: 10, projection: ['id'] });
          // a second read: the total is remembered, the page read apart
          const again = await items().findPage(filter, { sort, skip, limit: 10, projection: ['id'] });
          const listed = await items().find(filter, { sort, skip, limit: 10, projection: ['id'] });
          for (const [how, result] of [['page', page.documents], ['again', again.documents], ['find', listed]] as const) {
            const ids = result.map((document) => document.id);
            if (JSON.stringify(ids) !== JSON.stringify(expected)) found.push(`${how} ${JSON.stringify({ filter, sort, skip })}: ${JSON.stringify(ids)} for ${JSON.stringify(expected)}`);
          }
          if (page.total !== matched.length || (await items().countDocuments(filter)) !== matched.length) found.push(`total ${JSON.stringify(filter)}`);
        }
    return found;
  }

  test('pages agree with plain evaluation while the field ascends, and after each way it stops', async () => {
    await prepare(600);
    expect(await disagreements()).toEqual([]);
    await insert({ id: 5000, title: 'alpha eta', slug: 'delta', status: 'published' });
    expect(await disagreements()).toEqual([]);
    // below the last: sorted by id it comes first, not last
    await insert({ id: 1, title: 'alpha eta', slug: 'delta', status: 'published' });
    expect(await disagreements()).toEqual([]);
  });

  test.each<[string, (collection: Collection) => Promise<void>]>([
    ['an id changed by an update', async (collection) => {
      await collection.updateOne({ id: 1198 }, { $set: { id: -1 } });
      held.find((document) => document.id === 1198)!.id = -1;
    }],
    ['a row without the field', async () => insert({ title: 'alpha eta', slug: 'delta', status: 'published' })],
    ['a string', async () => {
      // a string sorts after every number: a number inserted after it shows the order
      await insert({ id: 'z', title: 'alpha eta', slug: 'delta', status: 'published' });
      await insert({ id: 5000, title: 'alpha eta', slug: 'delta', status: 'published' });
    }],
    ['a value equal to none but below the last, after the last row was deleted', async (collection) => {
      await collection.deleteOne({ id: 1198 });
      held.splice(held.findIndex((document) => document.id === 1198), 1);
      await insert({ id: 1197, title: 'alpha eta', slug: 'delta', status: 'published' });
      await insert({ id: 3, title: 'alpha eta', slug: 'delta', status: 'published' });
    }],
  ])('the order is the field\'s again after %s, and stays so once reopened', async (_, change) => {
    await prepare(600);
    await change(items());
    expect(await disagreements()).toEqual([]);
    await store.close();
    store = await openStore({ client: 'embedded' }, dataDir);
    await items().createIndex({ keys: [['id', 1]], unique: true });
    expect(await disagreements()).toEqual([]);
  });

  test('an index older than the question is asked once, from its rows', async () => {
    await prepare(300);
    await insert({ id: 7, title: 'alpha eta', slug: 'delta', status: 'published' });
    await store.close();
    // as a folder written before the store kept the answer
    const sqlite = new Database(join(dataDir, 'store.sqlite'));
    sqlite.exec('DELETE FROM folio_ascending');
    sqlite.close();
    store = await openStore({ client: 'embedded' }, dataDir);
    await items().createIndex({ keys: [['id', 1]], unique: true });
    expect(await disagreements()).toEqual([]);
  });
});
