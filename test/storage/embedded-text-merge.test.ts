import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../../src/storage/open-store';
import type { StoredDocument, Store } from '../../src/storage/types';

/**
 * A trigram index written by batches is merged into one segment in the background (text-index-merges), while
 * writes and searches go on, and answers the same afterwards.
 */

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
const titleOf = (index: number): string => `${WORDS[index % 10]} ${WORDS[Math.floor(index / 10) % 10]} number ${index}`;

let dataDir: string;
let store: Store;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'folio-text-merge-'));
});
afterEach(async () => {
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** the segments of the collection's trigram index, read through a connection of its own */
const segments = (): number => {
  const sqlite = new Database(join(dataDir, 'store.sqlite'), { readonly: true });
  try {
    return (sqlite.prepare('SELECT count(DISTINCT segid) AS n FROM "t:notes_idx"').get() as { n: number }).n;
  } finally {
    sqlite.close();
  }
};

/** segments holding a tenth of the index's pages or more */
const largeSegments = (): number => {
  const sqlite = new Database(join(dataDir, 'store.sqlite'), { readonly: true });
  try {
    const pages = (sqlite.prepare('SELECT count(*) AS n FROM "t:notes_idx" GROUP BY segid').all() as Array<{ n: number }>).map(({ n }) => n);
    const total = pages.reduce((sum, n) => sum + n, 0);
    return pages.filter((n) => n >= total / 10).length;
  } finally {
    sqlite.close();
  }
};

const until = async (condition: () => boolean, what: string): Promise<void> => {
  for (const started = Date.now(); !condition(); ) {
    if (Date.now() - started > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const insertBatches = async (batches: number, size: number): Promise<void> => {
  const notes = store.collection('notes');
  for (let batch = 0; batch < batches; batch++) {
    const start = batch * size;
    await notes.insertMany(Array.from({ length: size }, (_, offset): StoredDocument => ({ id: start + offset, title: titleOf(start + offset) })));
  }
};

const searched = async (literal: string): Promise<{ ids: number[]; total: number }> => {
  const { documents, total } = await store.collection('notes').findPage({ title: { $regex: literal, $options: 'i' } }, { sort: [['id', 1]], limit: 1000 });
  return { ids: documents.map((document) => document.id as number), total };
};

const expected = (literal: string, size: number): number[] =>
  Array.from({ length: size }, (_, index) => index).filter((index) => titleOf(index).toLowerCase().includes(literal.toLowerCase()));

test('an index built by batches ends in one segment and answers as before; a write during the merge is kept', async () => {
  store = await openStore({ client: 'embedded' }, dataDir);
  const notes = store.collection('notes');
  await notes.createIndex({ keys: [['title', 1]], text: true });
  // 10 commits of 500 entries: the 5,000 entries a merge waits for
  await insertBatches(10, 500);
  // written while the merge runs: its segment may stay apart
  await notes.insertOne({ id: 5000, title: titleOf(5000) });
  await until(() => segments() <= 2, 'the merge');
  for (const literal of ['ALPHA BRAVO', 'ber 50', 'elta']) expect(await searched(literal)).toEqual({ ids: expected(literal, 5001).slice(0, 1000), total: expected(literal, 5001).length });
});

test('an index left in large segments is merged after the store opens; small ones beside a large one are left', async () => {
  store = await openStore({ client: 'embedded' }, dataDir);
  await store.collection('notes').createIndex({ keys: [['title', 1]], text: true });
  // 3 commits of 1,500 entries: 4,500 entries, too few for a merge while the store runs, in 3 segments of a
  // third of the index each (FTS5 merges a level's segments once there are 4)
  await insertBatches(3, 1500);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(segments()).toBe(3);
  await store.close();
  store = await openStore({ client: 'embedded' }, dataDir);
  await until(() => segments() === 1, 'one segment after opening');
  const literal = 'golf';
  expect(await searched(literal)).toEqual({ ids: expected(literal, 4500).slice(0, 1000), total: expected(literal, 4500).length });
  // a few single writes add small segments: cheap to search, and not worth rewriting the index at every start
  for (let id = 4500; id < 4503; id++) await store.collection('notes').insertOne({ id, title: titleOf(id) });
  await store.close();
  const left = segments();
  expect(left).toBeGreaterThan(1);
  store = await openStore({ client: 'embedded' }, dataDir);
  await new Promise((resolve) => setTimeout(resolve, 2500));
  expect(segments()).toBe(left);
});

test('a merge ends while writes keep coming', async () => {
  store = await openStore({ client: 'embedded' }, dataDir);
  const notes = store.collection('notes');
  await notes.createIndex({ keys: [['title', 1]], text: true });
  // large enough that a merge takes many pages: merged in steps, each write in between started it over
  await insertBatches(3, 20_000);
  let writing = true;
  let written = 0;
  const writer = (async () => {
    for (let id = 60_000; writing; id++, written++) await notes.insertOne({ id, title: titleOf(id) });
  })();
  try {
    await until(() => largeSegments() <= 1, 'the merge to end');
  } finally {
    writing = false;
    await writer;
  }
  expect(written).toBeGreaterThan(0);
  const literal = 'hotel';
  const { total } = await searched(literal);
  expect(total).toBe(expected(literal, 60_000 + written).length);
}, 30_000);

test("an update of a document's other fields leaves its trigram entries as they are; one of its text rewrites them", async () => {
  store = await openStore({ client: 'embedded' }, dataDir);
  const notes = store.collection('notes');
  await notes.createIndex({ keys: [['title', 1]], text: true });
  await insertBatches(1, 20);
  const before = segments();
  // each rewritten entry would be a delete (a tombstone every later search checks) and a segment of its own
  for (let id = 0; id < 5; id++) await notes.updateOne({ id }, { $set: { views: id } });
  expect(segments()).toBe(before);
  await notes.updateOne({ id: 3 }, { $set: { title: 'renamed zulu' } });
  expect(segments()).toBeGreaterThan(before);
  expect(await searched('zulu')).toEqual({ ids: [3], total: 1 });
  expect((await searched(titleOf(3))).ids).not.toContain(3);
  expect((await searched(titleOf(4))).ids).toContain(4);
});
