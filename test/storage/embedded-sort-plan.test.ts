import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../../src/storage/open-store';
import type { Store, StoredDocument } from '../../src/storage/types';

/**
 * Every list's sort ends with `id` (the document service's tie-break), a field ascending with the rows' keys.
 * Past it no tie is left: a term for the key after it made SQLite sort each run of equal values apart whenever
 * the index read goes on past `id` (`[status, views, id, rating]`), every row up to the page's end. The plans
 * SQLite gives the store are read where the store asks for them (EXPLAIN QUERY PLAN, on its writing connection).
 */

let dir: string;
let store: Store;
const plans: Array<{ sql: string; details: string[] }> = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folio-sort-plan-'));
  store = await openStore({ client: 'embedded' }, dir, { holdAfterReads: Infinity });
  const items = store.collection('items');
  await items.createIndex({ keys: [['id', 1]], unique: true });
  await items.createIndex({ keys: [['status', 1], ['views', 1], ['id', 1], ['rating', 1]] });
  const documents = Array.from({ length: 600 }, (_, index): StoredDocument => ({ id: index + 1, status: index % 3 ? 'published' : 'draft', views: index % 7, rating: index % 5 }));
  await items.insertMany(documents);
  const prepare = Database.prototype.prepare;
  jest.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database.Database, source: string) {
    const statement = prepare.call(this, source);
    if (!source.startsWith('EXPLAIN QUERY PLAN')) return statement;
    const all = statement.all.bind(statement) as (...params: unknown[]) => unknown[];
    return Object.assign(statement, {
      all: (...params: unknown[]) => {
        const rows = all(...params) as Array<{ detail: string }>;
        plans.push({ sql: source, details: rows.map((row) => row.detail) });
        return rows;
      },
    });
  } as typeof prepare);
});

afterEach(async () => {
  jest.restoreAllMocks();
  plans.length = 0;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const expected = (direction: 1 | -1, skip: number): number[] =>
  Array.from({ length: 600 }, (_, index) => ({ id: index + 1, status: index % 3 ? 'published' : 'draft', views: index % 7 }))
    .filter((item) => item.status === 'published')
    .sort((left, right) => (left.views - right.views || left.id - right.id) * direction)
    .slice(skip, skip + 10)
    .map((item) => item.id);

test.each([
  ['descending', -1 as const],
  ['ascending', 1 as const],
])('a deep page sorted %s by a field, then id, is read in the index order without sorting apart', async (_, direction) => {
  const found = await store.collection('items').find({ status: 'published' }, { sort: [['views', direction], ['id', direction]], skip: 300, limit: 10 });
  expect(found.map((item) => item.id)).toEqual(expected(direction, 300));
  const page = plans.filter(({ sql }) => sql.includes('"views"'));
  expect(page.length).toBeGreaterThan(0);
  for (const { details } of page) expect(details.join('\n')).not.toContain('TEMP B-TREE');
});
