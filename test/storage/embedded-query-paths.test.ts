import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMingoMatcher } from '../../src/storage/create-matcher';
import { sortEntries } from '../../src/storage/embedded/sort-documents';
import { openStore } from '../../src/storage/open-store';
import type { Filter, SortSpec, Store, StoredDocument, StoredValue } from '../../src/storage/types';

// a fixed-seed generator: failures replay identically
function createRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return state / 2 ** 32;
  };
}

// lone surrogates and U+FFFD: UTF-8 cannot hold the first, the trigram index writes them as the second
const WORDS = ['alpha', 'Beta', 'gamma', 'DELTA', 'épsilon', 'Ωmega', 'straße', 'σίσυφος', 'x.y*z', 'a"b', '(paren)', 'zeta', 'eta', 'İstanbul', 'ﬀ', 'lo\ud800ne', 'rep\ufffdla'];
const escapeRegex = (value: string): string => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The SQL the embedded engine compiles filters and sorts to (expression indexes, multikey entries, trigram
 * search, per-document fallback) against the reference semantics (mingo, and the in-memory sort) on data
 * large enough for SQLite to take its index paths.
 */
describe('embedded engine query paths agree with plain evaluation', () => {
  let dataDir: string;
  let store: Store;
  const random = createRandom(7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const title = (): string => Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(WORDS)).join(' ');
  const documents: StoredDocument[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-paths-'));
    store = await openStore({ client: 'embedded' }, dataDir);
    const items = store.collection('items');
    for (const field of ['title', 'slug']) await items.createIndex({ keys: [[field, 1]], text: true });
    for (const field of ['n', 'slug', 'flag', 'when']) await items.createIndex({ keys: [[field, 1]] });
    for (let i = 0; i < 2000; i++) {
      const document: StoredDocument = { id: i, title: title(), n: Math.floor(random() * 100) - 20 };
      if (random() < 0.8) document.slug = random() < 0.1 ? null : `${pick(WORDS)}-${i % 37}`;
      if (random() < 0.7) document.flag = random() < 0.5;
      if (random() < 0.6) document.when = new Date(Date.UTC(2024, 0, 1) + Math.floor(random() * 1e10)).toISOString();
      if (random() < 0.7) document.tags = Array.from({ length: Math.floor(random() * 3) }, () => pick(WORDS));
      if (random() < 0.5) document.seo = { meta: random() < 0.2 ? null : pick(WORDS), rank: Math.floor(random() * 5) };
      if (random() < 0.3) document.blocks = [{ kind: pick(['a', 'b']), size: Math.floor(random() * 3) }];
      // a field holding several types: only the exact fallbacks serve it
      if (random() < 0.5) document.mixed = pick<StoredValue>([1, 'one', true, null, [1, 'a'], { a: 1 }, []]);
      documents.push(document);
    }
    for (let start = 0; start < documents.length; start += 500) await items.insertMany(documents.slice(start, start + 500));
  });

  afterAll(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const scalar = (): StoredValue => pick<StoredValue>([null, 0, 5, 42, -3, 'alpha', 'zeta', pick(WORDS), '2024-03-01', true, false, `${pick(WORDS)}-3`]);
  const textCondition = (): Filter => {
    const word = pick(WORDS);
    const start = Math.floor(random() * word.length);
    const piece = word.slice(start, start + 1 + Math.floor(random() * 5));
    const changed = random() < 0.5 ? piece.toUpperCase() : piece;
    const pattern = pick([`${escapeRegex(changed)}`, `^${escapeRegex(changed)}`, `${escapeRegex(changed)}$`, `^${escapeRegex(changed)}$`]);
    return random() < 0.6 ? { $regex: pattern, $options: 'i' } : { $regex: pattern };
  };
  const searchCondition = (): Filter => {
    const word = pick(WORDS);
    const start = Math.floor(random() * word.length);
    return { $regex: escapeRegex(word.slice(start, start + 1 + Math.floor(random() * 5)).toUpperCase()), $options: 'i' };
  };
  const condition = (field: string): unknown => {
    const roll = random();
    if (roll < 0.15) return scalar();
    if (roll < 0.35 && ['title', 'slug', 'tags', 'seo.meta', 'mixed'].includes(field)) return random() < 0.2 ? { $not: textCondition() } : textCondition();
    if (roll < 0.45 && ['n', 'flag', 'seo.rank', 'mixed', 'tags', 'blocks.kind'].includes(field)) {
      const asText = { $asText: random() < 0.5 ? textCondition() : { $regex: pick(['4', '^-', '2$', '^TRUE$', 'al']), $options: 'i' } };
      return random() < 0.2 ? { $not: asText } : asText;
    }
    const operator = pick(['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists', '$size', '$elemMatch']);
    if (operator === '$exists') return { $exists: random() < 0.5 };
    if (operator === '$size') return { $size: pick([0, 1, 2]) };
    if (operator === '$elemMatch') return field === 'blocks' ? { $elemMatch: { kind: pick(['a', 'b']) } } : { $elemMatch: { $eq: pick(WORDS) } };
    if (operator === '$in' || operator === '$nin') return { [operator]: Array.from({ length: Math.floor(random() * 4) }, scalar) };
    return { [operator]: scalar() };
  };
  const FIELDS = ['id', 'title', 'n', 'slug', 'flag', 'when', 'tags', 'seo.meta', 'seo.rank', 'blocks', 'blocks.kind', 'mixed', 'absent'];
  const filter = (depth: number): Filter => {
    if (depth < 2 && random() < 0.25) return { [pick(['$and', '$or', '$nor'])]: [filter(depth + 1), filter(depth + 1)] };
    const field = pick(FIELDS);
    return { [field]: condition(field) };
  };

  test('find and countDocuments match on random filters', async () => {
    const items = store.collection('items');
    const disagreements: string[] = [];
    for (let i = 0; i < 150; i++) {
      const candidate = filter(0);
      const matches = createMingoMatcher(candidate);
      const expected = documents.filter((document) => matches(document)).map((document) => document.id);
      const found = (await items.find(candidate, { projection: ['id'] })).map((document) => document.id);
      const counted = await items.countDocuments(candidate);
      if (JSON.stringify(found) !== JSON.stringify(expected) || counted !== expected.length) {
        disagreements.push(`${JSON.stringify(candidate)}: ${found.length} found, ${counted} counted, ${expected.length} expected`);
      }
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
  });

  test('sorted pages match on random sorts', async () => {
    const items = store.collection('items');
    const disagreements: string[] = [];
    for (let i = 0; i < 60; i++) {
      const sort: SortSpec = [[pick(['n', 'slug', 'flag', 'when', 'title', 'seo.rank', 'tags', 'mixed', 'absent']), pick([1, -1] as const)]];
      if (random() < 0.5) sort.push([pick(['n', 'id', 'slug']), pick([1, -1] as const)]);
      const candidate = random() < 0.5 ? {} : filter(1);
      // a third skip past 1,000 rows: read on a reader thread
      const skip = i % 3 === 0 ? 1000 + Math.floor(random() * 900) : Math.floor(random() * 200);
      const limit = 1 + Math.floor(random() * 30);
      const matches = createMingoMatcher(candidate);
      const matched = documents.map((document, index): [number, StoredDocument] => [index, document]).filter(([, document]) => matches(document));
      const expected = sortEntries(matched, sort).slice(skip, skip + limit).map((index) => documents[index].id);
      const found = (await items.find(candidate, { sort, skip, limit, projection: ['id'] })).map((document) => document.id);
      if (JSON.stringify(found) !== JSON.stringify(expected)) disagreements.push(`${JSON.stringify({ candidate, sort, skip, limit })}`);
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
  });

  test('findPage answers the page and the total of random filters and sorts, text searches among them', async () => {
    const items = store.collection('items');
    const disagreements: string[] = [];
    for (let i = 0; i < 80; i++) {
      const sort: SortSpec = [[pick(['n', 'slug', 'title', 'id', 'mixed']), pick([1, -1] as const)]];
      // a search (case-insensitive, unanchored) at the top, alone or among other conditions, drives the read
      const roll = random();
      const candidate = roll < 0.3 ? { title: textCondition() } : roll < 0.6 ? { $and: [filter(1), { $and: [{ title: searchCondition() }] }] } : filter(1);
      const skip = Math.floor(random() * 50);
      const limit = 1 + Math.floor(random() * 30);
      const matches = createMingoMatcher(candidate);
      const matched = documents.map((document, index): [number, StoredDocument] => [index, document]).filter(([, document]) => matches(document));
      const expected = sortEntries(matched, sort).slice(skip, skip + limit).map((index) => documents[index].id);
      const { documents: page, total } = await items.findPage(candidate, { sort, skip, limit, projection: ['id'] });
      const found = page.map((document) => document.id);
      if (JSON.stringify(found) !== JSON.stringify(expected) || total !== matched.length) {
        disagreements.push(`${JSON.stringify({ candidate, sort, skip, limit })}: ${total} for ${matched.length}`);
      }
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
  });

  test('a search whose remembered total is large has its pages read in the sort order, each row tested, and still right', async () => {
    const items = store.collection('items');
    const disagreements: string[] = [];
    const sorts: SortSpec[] = [[['n', 1]], [['n', -1], ['slug', 1]], [['slug', -1]]];
    for (const piece of ['ETA', 'alp', 'stanbul', 'AMM'])
      for (const sort of sorts)
        for (const skip of [0, 7, 300]) {
          const candidate: Filter = { $and: [{ n: { $gte: -5 } }, { title: { $regex: piece, $options: 'i' } }] };
          const matches = createMingoMatcher(candidate);
          const matched = documents.map((document, index): [number, StoredDocument] => [index, document]).filter(([, document]) => matches(document));
          const expected = sortEntries(matched, sort).slice(skip, skip + 20).map((index) => documents[index].id);
          // twice: the first read counts the total, the second knows it and may walk
          for (const round of [1, 2]) {
            const { documents: page, total } = await items.findPage(candidate, { sort, skip, limit: 20, projection: ['id'] });
            const found = page.map((document) => document.id);
            if (JSON.stringify(found) !== JSON.stringify(expected) || total !== matched.length) disagreements.push(`${piece} ${JSON.stringify(sort)} skip ${skip} round ${round}`);
          }
        }
    expect(disagreements.slice(0, 5)).toEqual([]);
  });

  test('a text holding a lone surrogate is found through the trigram index by the characters around it', async () => {
    const notes = store.collection('notes');
    await notes.createIndex({ keys: [['text', 1]], text: true });
    await notes.insertMany([{ n: 1, text: 'lo\ud800ne and more' }, { n: 2, text: 'rep\ufffdlace' }, { n: 3, text: 'plain and more' }]);
    const found = async (filter: Filter) => (await notes.find(filter, { sort: [['n', 1]] })).map((note) => note.n);
    expect(await found({ text: { $regex: 'NE AND', $options: 'i' } })).toEqual([1]);
    expect(await found({ text: { $regex: 'and more', $options: 'i' } })).toEqual([1, 3]);
    expect(await found({ text: { $regex: 'lo\ud800n', $options: 'i' } })).toEqual([1]);
    expect(await found({ text: { $regex: 'p\ufffdl' } })).toEqual([2]);
  });

  test('updates keep every index path in step', async () => {
    const items = store.collection('items');
    await items.updateMany({ n: { $lt: 0 } }, { $set: { title: 'renamed alpha', tags: ['zeta'], n: 1000 } });
    for (const document of documents) {
      if (typeof document.n === 'number' && document.n < 0) Object.assign(document, { title: 'renamed alpha', tags: ['zeta'], n: 1000 });
    }
    for (const candidate of [{ title: { $regex: 'RENAMED', $options: 'i' } }, { tags: 'zeta' }, { n: { $gte: 1000 } }, { title: { $regex: '^Beta' } }] as Filter[]) {
      const matches = createMingoMatcher(candidate);
      expect((await items.find(candidate, { projection: ['id'] })).map((document) => document.id)).toEqual(
        documents.filter((document) => matches(document)).map((document) => document.id),
      );
    }
  });

  test('remembered totals stay exact across inserts, updates and deletes', async () => {
    const counted = store.collection('counted');
    for (const field of ['title', 'slug']) await counted.createIndex({ keys: [[field, 1]], text: true });
    for (const field of ['n', 'slug', 'flag', 'when']) await counted.createIndex({ keys: [[field, 1]] });
    await counted.insertMany(documents.slice(0, 800).map((document): StoredDocument => JSON.parse(JSON.stringify(document))));
    const filters = Array.from({ length: 30 }, () => filter(0));
    // totals remembered by a count and by a page read with its total
    for (const [index, candidate] of filters.entries()) await (index % 2 === 0 ? counted.countDocuments(candidate) : counted.findPage(candidate, { limit: 1 }));
    const disagreements: string[] = [];
    for (let round = 0; round < 25; round++) {
      const roll = random();
      if (roll < 0.3) await counted.insertOne({ id: 10_000 + round, title: title(), n: Math.floor(random() * 100) - 20, tags: [pick(WORDS)], flag: random() < 0.5 });
      else if (roll < 0.6) await counted.updateMany(filter(1), { $set: { n: Math.floor(random() * 100) - 20, title: title(), tags: random() < 0.5 ? [] : [pick(WORDS), pick(WORDS)] } });
      else if (roll < 0.8) await counted.updateOne(filter(1), { $unset: ['slug'], $set: { flag: random() < 0.5, seo: { meta: pick(WORDS), rank: 1 } } });
      else await counted.deleteOne(filter(1));
      for (const candidate of filters) {
        const total = await counted.countDocuments(candidate);
        const found = (await counted.find(candidate, { projection: ['id'] })).length;
        if (total !== found) disagreements.push(`round ${round}, ${JSON.stringify(candidate)}: ${total} counted, ${found} found`);
      }
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
  });
});

describe('embedded engine reads that scan', () => {
  test('run off the main thread: a cheap read asked after a scan of 20,000 documents answers first', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'folio-scan-'));
    const store = await openStore({ client: 'embedded' }, dataDir);
    try {
      const items = store.collection('items');
      await items.createIndex({ keys: [['id', 1]], unique: true });
      const documents = Array.from({ length: 20000 }, (_, id): StoredDocument => ({ id, blocks: [{ kind: id % 7 === 0 ? 'quote' : 'text', size: id % 5 }] }));
      for (let start = 0; start < documents.length; start += 5000) await items.insertMany(documents.slice(start, start + 5000));
      const answered: string[] = [];
      // $elemMatch on an array of objects: only the in-memory matcher decides it, document by document
      const scan = items.countDocuments({ blocks: { $elemMatch: { kind: 'quote', size: { $gte: 2 } } } }).then((total) => {
        answered.push('scan');
        return total;
      });
      const cheap = items.findOne({ id: 12345 }).then((found) => {
        answered.push('cheap');
        return found;
      });
      expect(await cheap).toEqual(documents[12345]);
      expect(await scan).toBe(documents.filter((document) => Number(document.id) % 7 === 0 && Number(document.id) % 5 >= 2).length);
      expect(answered).toEqual(['cheap', 'scan']);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
