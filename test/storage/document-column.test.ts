import Database from 'better-sqlite3';
import { AllowanceSpentError, bytesSpent, createByteAllowance } from '../../src/storage/byte-allowance';
import { readDocumentRows } from '../../src/storage/embedded/document-column';

const sqlite = new Database(':memory:');
// documents of 100 bytes each
sqlite.exec('CREATE TABLE d (k INTEGER PRIMARY KEY, doc TEXT)');
for (let k = 1; k <= 10; k += 1) sqlite.prepare('INSERT INTO d (k, doc) VALUES (?, ?)').run(k, JSON.stringify({ n: String(k).padStart(2, '0'), text: 'x'.repeat(80) }));
afterAll(() => sqlite.close());
const page = sqlite.prepare<unknown[]>('SELECT k, doc FROM d ORDER BY k LIMIT ?');

test('a page of `parseFrom` bytes or more is parsed where it is read; a smaller one is left as text', () => {
  const parsed = readDocumentRows(page, [10], {}, 1000) as Array<{ doc: unknown }>;
  expect(parsed[9].doc).toEqual({ n: '10', text: 'x'.repeat(80) });
  const text = readDocumentRows(page, [9], {}, 1000) as Array<{ doc: unknown }>;
  expect(typeof text[0].doc).toBe('string');
});

test('rows are counted against the allowance; a read past what is left stops taking rows and throws', () => {
  const allowance = createByteAllowance(1500);
  expect(readDocumentRows(page, [10], { allowance }, 0)).toHaveLength(10);
  expect(bytesSpent(allowance)).toBe(1000);
  expect(() => readDocumentRows(page, [10], { allowance }, 0)).toThrow(AllowanceSpentError);
  // 500 bytes were left: six rows of 100 taken, not ten
  expect(bytesSpent(allowance)).toBe(1600);
});
