import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/storage/open-store';
import type { AggregateQuery, Store } from '../../src/storage/types';

/** What the embedded engine adds to the aggregate contract (store-contract runs it on both engines). */
describe('embedded aggregate', () => {
  let dataDir: string;
  let store: Store;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-aggregate-'));
    store = await openStore({ client: 'embedded' }, dataDir);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('big integers written as text are summed exactly, past 64 bits', async () => {
    const values = ['9223372036854775807', '9223372036854775807', '-5', '123456789012345678901234567890'];
    const items = store.collection('items');
    await items.insertMany(values.map((big, index) => ({ id: index + 1, big, g: index % 2 })));
    const expected = values.reduce((total, value) => total + BigInt(value), 0n).toString();
    const [group] = await items.aggregate({}, { accumulators: { total: { operator: 'sum', field: 'big', integerText: true } } });
    expect(group.values.total).toBe(expected);
    const byParity = await items.aggregate({}, { groupBy: ['g'], accumulators: { total: { operator: 'sum', field: 'big', integerText: true } } });
    expect(byParity).toEqual([0, 1].map((g) => ({ key: [g], values: { total: values.filter((_, index) => index % 2 === g).reduce((t, v) => t + BigInt(v), 0n).toString() } })));
  });

  test('an aggregation inside a transaction sees its writes', async () => {
    const items = store.collection('items');
    await items.insertOne({ id: 1, n: 2 });
    const inside = await store.transaction(async () => {
      await items.insertOne({ id: 2, n: 3 });
      return items.aggregate({}, { accumulators: { total: { operator: 'sum', field: 'n' } } });
    });
    expect(inside[0].values.total).toBe(5);
  });

  test('grouped in an index\'s order or apart (read through a selection of its own), the groups are the same', async () => {
    const rows = Array.from({ length: 60 }, (_, index) => ({
      id: index + 1,
      g: [null, 'a', 'b', 'c', 2][index % 5],
      n: index % 7 === 0 ? 'text' : index,
      when: `2026-01-${String(1 + (index % 28)).padStart(2, '0')}`,
    }));
    const query: AggregateQuery = {
      groupBy: ['g'],
      accumulators: { count: { operator: 'count' }, sum: { operator: 'sum', field: 'n' }, avg: { operator: 'avg', field: 'n' }, min: { operator: 'min', field: 'when' }, max: { operator: 'max', field: 'n' } },
      sort: [['count', -1]],
    };
    const apart = store.collection('apart');
    await apart.insertMany(rows);
    const inOrder = store.collection('in_order');
    await inOrder.createIndex({ keys: [['g', 1], ['id', 1]] });
    await inOrder.insertMany(rows);
    const filter = { id: { $gt: 3 } };
    const expected = await apart.aggregate(filter, query);
    expect(expected).toHaveLength(5);
    expect(await inOrder.aggregate(filter, query)).toEqual(expected);
    expect(await inOrder.aggregate(filter, { ...query, sort: [] })).toEqual(await apart.aggregate(filter, { ...query, sort: [] }));
  });
});
