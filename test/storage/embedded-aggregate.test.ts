import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/storage/open-store';
import type { Store } from '../../src/storage/types';

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
});
