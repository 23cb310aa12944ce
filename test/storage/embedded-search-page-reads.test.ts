import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../../src/storage/open-store';
import type { Store } from '../../src/storage/types';

/**
 * A text search's page with its total is one statement on a reader thread, documents included: read apart, the
 * page's documents were read on the main thread whenever every reader was busy with a scan (collection-read's
 * `withDocuments`). The main thread's reads of documents are counted by wrapping its statements.
 */

const WORDS = ['alpha', 'beta', 'gamma', 'delta'];

let dataDir: string;
let store: Store;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'folio-search-page-'));
  store = await openStore({ client: 'embedded' }, dataDir);
  const items = store.collection('items');
  await items.createIndex({ keys: [['title', 1]], text: true });
  await items.createIndex({ keys: [['n', 1]] });
  await items.insertMany(Array.from({ length: 3000 }, (_, id) => ({ id, n: id % 97, title: `${WORDS[id % 4]} ${WORDS[(id * 7) % 4]} item ${id}` })));
});

afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** calls of the main thread's statements that read documents, while `work` runs */
async function documentReadsHere(work: () => Promise<unknown>): Promise<number> {
  const statement = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<'all' | 'get' | 'iterate', (...args: unknown[]) => unknown>;
  const originals = { all: statement.all, get: statement.get, iterate: statement.iterate };
  let reads = 0;
  for (const name of ['all', 'get', 'iterate'] as const) {
    statement[name] = function counted(this: { source: string }, ...args: unknown[]) {
      if (/^\s*SELECT/i.test(this.source) && this.source.includes('json(')) reads += 1;
      return originals[name].apply(this, args);
    };
  }
  try {
    await work();
  } finally {
    Object.assign(statement, originals);
  }
  return reads;
}

test.each([
  ['in key order', undefined],
  ['sorted by another field', [['n', -1]] as [string, 1 | -1][]],
])('twenty searches at once, %s: every page right, no document read on the main thread', async (_, sort) => {
  const items = store.collection('items');
  // `n` below every value: each call's filter its own, so no total is remembered and each page is read with its total
  const search = (word: string, below = -1) => items.findPage({ title: { $regex: word, $options: 'i' }, n: { $gt: below } }, { limit: 10, skip: 5, sort });
  // alone first: the reader threads started, every statement compiled, and the pages to expect
  const alone = await Promise.all(WORDS.map((word) => search(word)));
  let pages: Awaited<ReturnType<typeof search>>[] = [];
  const reads = await documentReadsHere(async () => {
    pages = await Promise.all(Array.from({ length: 20 }, (_, index) => search(WORDS[index % 4], -2 - index - (sort ? 100 : 0))));
  });
  expect(reads).toBe(0);
  expect(alone.map((page) => page.total)).toEqual([750, 1500, 750, 1500]);
  for (const [index, page] of pages.entries()) expect(page).toEqual(alone[index % 4]);
  for (const [index, page] of alone.entries()) {
    expect(page.documents).toHaveLength(10);
    for (const document of page.documents) expect(String(document.title)).toContain(WORDS[index]);
  }
});
