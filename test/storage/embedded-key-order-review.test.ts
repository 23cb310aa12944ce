import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMingoMatcher } from '../../src/storage/create-matcher';
import { sortEntries } from '../../src/storage/embedded/sort-documents';
import { openStore } from '../../src/storage/open-store';
import type { Collection, Filter, SortSpec, Store, StoredDocument } from '../../src/storage/types';
import { heldTransaction } from '../support/held-transaction';

/**
 * Review of 65140c0 (a search's page read in key order when its sort leads with a unique field that ascends
 * with the rows' keys) and cadf211: cases its own tests do not reach.
 */
describe('embedded engine: key order of an ascending unique field (review)', () => {
  let dataDir: string;
  let store: Store;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-key-order-review-'));
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

  /** the filter's page as the reference evaluates it over what the store holds (read back in natural order) */
  async function expected(filter: Filter, sort: SortSpec, skip: number, limit: number): Promise<unknown[]> {
    const stored = await items().find({});
    const matches = createMingoMatcher(filter);
    const matched = stored.map((document, index): [number, StoredDocument] => [index, document]).filter(([, document]) => matches(document));
    return sortEntries(matched, sort)
      .slice(skip, skip + limit)
      .map((index) => stored[index].id);
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
});
