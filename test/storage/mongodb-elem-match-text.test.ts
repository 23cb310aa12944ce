import { randomUUID } from 'node:crypto';
import { MongoClient, type CommandStartedEvent, type Db } from 'mongodb';
import { createMingoMatcher } from '../../src/storage/create-matcher';
import { createMongoCollection } from '../../src/storage/mongodb/mongodb-collection';
import type { Collection, Filter, StoredDocument, StoredValue } from '../../src/storage/types';
import { MONGODB_TEST_URL } from '../mongodb/server-kind';

// a fixed-seed generator: failures replay identically
function createRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return state / 2 ** 32;
  };
}

/**
 * `$asText` inside `$elemMatch` on MongoDB: the server evaluates the whole condition (one command, no list of
 * `_id`s read first and sent back), with the semantics of the embedded engine's matcher.
 */
describe('mongodb engine: $asText inside $elemMatch', () => {
  let client: MongoClient;
  let db: Db;
  let lists: Collection;
  const commands: CommandStartedEvent[] = [];
  const random = createRandom(Number(process.env.SEED ?? 11));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const VALUES: StoredValue[] = [5, 15, 150.5, -0.5, 0, 2, true, false, 'x5', '15', 'true', '', null, [5], [15, 'a'], { five: 5 }];
  const documents: StoredDocument[] = [];

  const element = (depth: number): StoredDocument => {
    const item: StoredDocument = {};
    if (random() < 0.8) item.n = pick(VALUES);
    if (random() < 0.5) item.flag = pick<StoredValue>([true, false, 'true', null]);
    if (random() < 0.5) item.label = pick<StoredValue>(['a5', 'b', 'X', 'x15', null]);
    if (random() < 0.3) item.meta = pick<StoredValue>([{ views: pick(VALUES) }, null, [{ views: 7 }], { views: [1, 25] }]);
    if (depth === 0 && random() < 0.3) item.inner = Array.from({ length: Math.floor(random() * 3) }, () => element(1));
    return item;
  };

  beforeAll(async () => {
    client = new MongoClient(MONGODB_TEST_URL, { serverSelectionTimeoutMS: 5_000, monitorCommands: true });
    await client.connect();
    client.on('commandStarted', (event) => commands.push(event));
    db = client.db(`folio_elem_match_${randomUUID().slice(0, 8)}`);
    lists = createMongoCollection('lists', db, () => undefined);
    for (let id = 0; id < 300; id++) {
      const document: StoredDocument = { id };
      const roll = random();
      if (roll < 0.75) document.blocks = Array.from({ length: Math.floor(random() * 4) }, () => element(0));
      else if (roll < 0.85) document.blocks = pick<StoredValue>([null, { n: 15 }, 'x5']);
      if (random() < 0.4) document.nums = Array.from({ length: Math.floor(random() * 4) }, () => pick(VALUES));
      documents.push(document);
    }
    await lists.insertMany(documents);
  });

  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
  });

  const pattern = (): Filter => ({ $regex: pick(['5', '^1', '^-', '\\.5$', '^(true|false)$', '^TRUE$', '$', 'a']), ...(random() < 0.3 ? { $options: 'i' } : {}) });
  const text = (): Filter => (random() < 0.2 ? { $not: { $asText: pattern() } } : { $asText: pattern() });
  // mingo, the embedded engine's reference, takes `$size` of a path through a list of objects as the number of
  // values it collects, where MongoDB (and the translation) test each value: no `$size` on such a path here
  const other = (field: string): unknown =>
    pick<unknown>([
      5,
      null,
      true,
      'b',
      { $gt: 1 },
      { $lte: 'b' },
      { $gte: null },
      { $ne: null },
      { $in: [null, 15, 'X'] },
      { $nin: [5, true] },
      { $exists: random() < 0.5 },
      field === 'meta.views' ? { $exists: true } : { $size: 1 },
      { $regex: '^x', $options: 'i' },
      { $not: { $gt: 2 } },
    ]);
  /** the criteria of an `$elemMatch` on objects, holding `$asText` somewhere */
  const criteria = (depth: number): Filter => {
    const fields = ['n', 'flag', 'label', 'meta.views', 'meta', 'absent'];
    const condition: Filter = { [pick(fields)]: random() < 0.8 ? text() : { ...pattern(), $asText: pattern() } };
    const extra = pick(fields);
    if (!(extra in condition) && random() < 0.4) condition[extra] = other(extra);
    if (depth === 0 && random() < 0.2) return { inner: { $elemMatch: criteria(1) }, ...(random() < 0.5 ? { n: other('n') } : {}) };
    if (random() >= 0.15) return condition;
    const field = pick(fields);
    return { [pick(['$or', '$nor', '$and'])]: [condition, { [field]: other(field) }] };
  };
  const filter = (): Filter => {
    const roll = random();
    if (roll < 0.2) return { nums: { $elemMatch: { $asText: pattern(), ...(random() < 0.5 ? { $gt: 1 } : {}) } } };
    const onList: Filter = { blocks: { $elemMatch: criteria(0) } };
    if (roll < 0.35) return { $nor: [onList] };
    if (roll < 0.5) return { $or: [onList, { id: { $lt: 20 } }] };
    return onList;
  };

  test('finds and counts what the embedded engine matches, on random conditions and lists', async () => {
    const disagreements: string[] = [];
    for (let i = 0; i < 200; i++) {
      const candidate = filter();
      const matches = createMingoMatcher(candidate);
      const expected = documents.filter((document) => matches(document)).map((document) => document.id);
      const found = (await lists.find(candidate, { sort: [['id', 1]], projection: ['id'] })).map((document) => document.id);
      const counted = await lists.countDocuments(candidate);
      if (JSON.stringify(found) !== JSON.stringify(expected) || counted !== expected.length) {
        disagreements.push(`${JSON.stringify(candidate)}: ${JSON.stringify(found)} found, ${counted} counted, ${JSON.stringify(expected)} expected`);
      }
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
  });

  test('each read, count, update and delete is one command, carrying no list of _ids', async () => {
    const inList: Filter = { blocks: { $elemMatch: { n: { $asText: { $regex: '^1' } } } } };
    const matches = createMingoMatcher(inList);
    const expected = documents.filter((document) => matches(document)).length;
    expect(expected).toBeGreaterThan(0);
    commands.length = 0;
    expect(await lists.find(inList)).toHaveLength(expected);
    expect(await lists.countDocuments(inList)).toBe(expected);
    expect(await lists.updateMany(inList, { $set: { seen: true } })).toBe(expected);
    expect(await lists.deleteMany({ ...inList, seen: true })).toBe(expected);
    expect(commands.map((command) => command.commandName)).toEqual(['find', 'aggregate', 'update', 'delete']);
    expect(commands.map((command) => JSON.stringify(command.command)).filter((command) => command.includes('"_id":{"$in"'))).toEqual([]);
  });
});
