import Database from 'better-sqlite3';
import { compileSelection, type FilterTarget } from '../../src/storage/embedded/compile-filter';
import { KIND } from '../../src/storage/embedded/path-kinds';

/**
 * A range's type guard (`< ''` beside a number, `>= ''` beside a string) must not bound the index search in place
 * of the range's own operand: SQLite took `< ''` for the upper bound of `views >= ? AND views < ?` and read from
 * the lower bound to the end of the numbers, so a range near the start of 200,000 articles read them all. Read
 * from SQLite's program: both ends of the search are loaded from the statement's parameters, none from a constant.
 */

const target: FilterTarget = {
  tables: { docs: 'c:items', multikey: 'm:items', text: 't:items' },
  of: (path) => (path === 'views' || path === 'title' ? (path === 'views' ? KIND.number : KIND.string) : path === 'tags' ? KIND.array | KIND.number | KIND.string : 0),
  textIndex: () => undefined,
};

const open = () => {
  const sqlite = new Database(':memory:');
  sqlite.exec(`
    CREATE TABLE "c:items" (k INTEGER PRIMARY KEY, doc BLOB NOT NULL);
    CREATE INDEX "c:items:views" ON "c:items" (json_extract(doc, '$."views"'), k);
    CREATE INDEX "c:items:title" ON "c:items" (json_extract(doc, '$."title"'), k);
    CREATE TABLE "m:items" (f TEXT NOT NULL, v, k INTEGER NOT NULL);
    CREATE INDEX "m:items:fvk" ON "m:items" (f, v, k);
  `);
  return sqlite;
};

interface Step {
  addr: number;
  opcode: string;
  p2: number;
  p3: number;
  p4: unknown;
}

/**
 * For each end of an index search (SeekGE/GT/LE/LT and IdxGE/GT/LE/LT), the opcode that last loaded the register of
 * its last key column before it: `Variable` (an operand), `Null` (past NULLs), or `String8`/`Blob` (a guard's constant).
 */
const boundLoads = (sqlite: Database.Database, sql: string, params: readonly unknown[]): string[] => {
  const program = sqlite.prepare(`EXPLAIN ${sql}`).all(...params) as Step[];
  const ends = program.filter((step) => /^(Seek|Idx)(GE|GT|LE|LT)$/.test(step.opcode));
  expect(ends.length).toBeGreaterThanOrEqual(2);
  return ends.map((end) => {
    const register = end.p3 + Number(end.p4) - 1;
    const loads = program.filter((step) => step.addr < end.addr && step.p2 === register && /^(Variable|String8|Blob|Integer|Real|Null)$/.test(step.opcode));
    return loads.at(-1)?.opcode ?? 'none';
  });
};

test.each([
  ['numbers', { views: { $gte: 10, $lt: 20 } }],
  ['numbers, the bounds named the other way round', { views: { $lt: 20, $gte: 10 } }],
  ['strings', { title: { $gte: 'b', $lte: 'm' } }],
  ['array elements (multikey entries), numbers', { tags: { $gt: 1, $lte: 5 } }],
  ['array elements (multikey entries), strings', { tags: { $gt: 'a', $lt: 'k' } }],
])('a range of %s is searched between its operands', (_, filter) => {
  const sqlite = open();
  const selection = compileSelection(target, filter, '"c:items"');
  const loads = boundLoads(sqlite, `SELECT count(*) ${selection.sql}`, selection.params);
  expect(loads.filter((opcode) => opcode === 'String8' || opcode === 'Blob')).toEqual([]);
  expect(loads).toContain('Variable');
  sqlite.close();
});

test('the guards still keep other types out', () => {
  const sqlite = open();
  const insert = sqlite.prepare('INSERT INTO "c:items" (doc) VALUES (?)');
  for (const doc of [{ views: 5 }, { views: 15 }, { views: 'text' }, { title: 'c' }, { title: 3 }]) insert.run(JSON.stringify(doc));
  const count = (filter: Record<string, unknown>) => {
    const selection = compileSelection(target, filter, '"c:items"');
    return (sqlite.prepare(`SELECT count(*) AS n ${selection.sql}`).get(...selection.params) as { n: number }).n;
  };
  expect(count({ views: { $gte: 10 } })).toBe(1);
  expect(count({ title: { $lt: 'z' } })).toBe(1);
  sqlite.close();
});
