import { AllowanceSpentError, bytesSpent, createByteAllowance } from '../../src/storage/byte-allowance';
import { UnsafeFilterError } from '../../src/storage/filter-guard';
import { aggregateContract } from './aggregate-contract';
import { UniqueConstraintError, type Collection, type Filter, type FindOptions, type StoredDocument, type Store } from '../../src/storage/types';

/** One isolated store's data: open it (again) any number of times, destroy it at the end. */
export interface StoreFixture {
  open(): Promise<Store>;
  /** whether a transaction that throws leaves nothing behind on this deployment */
  atomicTransactions: boolean;
  /** drops the data; every store opened from the fixture is closed before */
  destroy(): Promise<void>;
}

/** What a server may lack (the in-process test server does): its tests are skipped, with the reason said once. */
export type ContractGap = 'uniqueIndexes' | 'sortOrder';

export interface ContractOptions {
  /** `describe.skip` when the engine is not available here */
  describe?: jest.Describe;
  /** the gaps of the server under test, each with its reason */
  lacks?: Partial<Record<ContractGap, string>>;
}

const ARTICLES: StoredDocument[] = [
  {
    id: 1,
    title: 'Alpha',
    views: 10,
    tags: ['news', 'tech'],
    author: { name: 'Ann', age: 30 },
    comments: [
      { by: 'x', score: 5 },
      { by: 'y', score: 1 },
    ],
    publishedAt: '2024-01-01T00:00:00.000Z',
    rating: null,
  },
  { id: 2, title: 'beta', views: 5, tags: ['tech'], author: { name: 'Bob', age: 40 }, comments: [], publishedAt: null },
  { id: 3, title: 'Gamma', views: 20, tags: [], author: { name: 'ann' }, comments: [{ by: 'y', score: 5 }], rating: 4 },
  {
    id: 4,
    title: 'delta',
    views: 5,
    author: null,
    comments: [
      { by: 'x', score: 2 },
      { by: 'z', score: 9 },
    ],
    publishedAt: '2024-03-01T00:00:00.000Z',
    rating: 3,
  },
  { id: 5, title: 'Épsilon', views: 0, tags: ['news'], publishedAt: '2023-06-01T00:00:00.000Z' },
];

const ids = (documents: StoredDocument[]): unknown[] => documents.map((document) => document.id);

/**
 * The storage contract every engine implements. Results whose order MongoDB leaves open (ties, natural
 * order) are compared sorted or with a tie-breaker, so the same suite holds for every engine.
 */
export function describeStoreContract(name: string, createFixture: () => Promise<StoreFixture>, options: ContractOptions = {}): void {
  const describeEngine = options.describe ?? describe;
  const lacks = options.lacks ?? {};
  for (const reason of Object.values(lacks)) console.warn(`storage contract: ${name}: tests skipped because ${reason} (they run against a real server)`);
  /** `test`, or `test.skip` where the server lacks what the test checks */
  const testUnless = (gap: ContractGap): jest.It => (lacks[gap] ? test.skip : test);

  describeEngine(`storage contract: ${name}`, () => {
    let fixture: StoreFixture;
    let store: Store;
    let articles: Collection;

    beforeEach(async () => {
      fixture = await createFixture();
      store = await fixture.open();
      articles = store.collection('articles');
      await articles.insertMany(ARTICLES);
    });

    afterEach(async () => {
      await store.close();
      await fixture.destroy();
    });

    const matching = async (filter: Filter): Promise<unknown[]> => ids(await articles.find(filter, { sort: [['id', 1]] }));

    describe('comparison operators', () => {
      test.each<[string, Filter, number[]]>([
        ['implicit equality', { title: 'Alpha' }, [1]],
        ['$eq', { views: { $eq: 5 } }, [2, 4]],
        ['$ne', { views: { $ne: 5 } }, [1, 3, 5]],
        ['$gt on numbers', { views: { $gt: 5 } }, [1, 3]],
        ['$gte on numbers', { views: { $gte: 5 } }, [1, 2, 3, 4]],
        ['$lt on numbers', { views: { $lt: 5 } }, [5]],
        ['$lte on numbers', { views: { $lte: 5 } }, [2, 4, 5]],
        ['$gte on ISO dates, never matching null or missing', { publishedAt: { $gte: '2024-01-01T00:00:00.000Z' } }, [1, 4]],
        ['$lt on strings, never matching null or missing', { publishedAt: { $lt: '2024-02-01' } }, [1, 5]],
        ['$gt and $lt combined', { views: { $gt: 0, $lt: 20 } }, [1, 2, 4]],
        ['equality on an object', { author: { name: 'Bob', age: 40 } }, [2]],
      ])('%s', async (_, filter, expected) => {
        expect(await matching(filter)).toEqual(expected);
      });
    });

    describe('null and missing', () => {
      test.each<[string, Filter, number[]]>([
        ['{ field: null } matches null and missing', { publishedAt: null }, [2, 3]],
        ['$eq null matches null and missing', { publishedAt: { $eq: null } }, [2, 3]],
        ['$ne null matches neither null nor missing', { publishedAt: { $ne: null } }, [1, 4, 5]],
        ['$exists false matches only missing', { publishedAt: { $exists: false } }, [3]],
        ['$exists true matches null values too', { publishedAt: { $exists: true } }, [1, 2, 4, 5]],
        ['$in with null matches missing', { publishedAt: { $in: [null, '2023-06-01T00:00:00.000Z'] } }, [2, 3, 5]],
        ['$nin matches missing fields', { tags: { $nin: ['news'] } }, [2, 3, 4]],
        ['$not matches missing and null', { rating: { $not: { $gt: 3 } } }, [1, 2, 4, 5]],
        ['a dotted path under a null parent is missing', { 'author.name': null }, [4, 5]],
      ])('%s', async (_, filter, expected) => {
        expect(await matching(filter)).toEqual(expected);
      });
    });

    describe('arrays', () => {
      test.each<[string, Filter, number[]]>([
        ['equality matches an element', { tags: 'tech' }, [1, 2]],
        ['$in on an array field', { tags: { $in: ['news'] } }, [1, 5]],
        ['$in with several values', { views: { $in: [5, 20] } }, [2, 3, 4]],
        ['$nin on an array field', { tags: { $nin: ['tech'] } }, [3, 4, 5]],
        ['$size 0', { tags: { $size: 0 } }, [3]],
        ['$size 1', { tags: { $size: 1 } }, [2, 5]],
        ['$elemMatch on objects needs one element to match every condition', { comments: { $elemMatch: { by: 'x', score: { $gte: 5 } } } }, [1]],
        ['dotted paths into arrays match across elements', { 'comments.by': 'x', 'comments.score': { $gte: 5 } }, [1, 4]],
        ['$elemMatch on scalars', { tags: { $elemMatch: { $eq: 'tech' } } }, [1, 2]],
        ['$elemMatch never matches an empty array', { comments: { $elemMatch: { score: { $gte: 0 } } } }, [1, 3, 4]],
      ])('%s', async (_, filter, expected) => {
        expect(await matching(filter)).toEqual(expected);
      });
    });

    describe('strings', () => {
      test.each<[string, Filter, number[]]>([
        ['$regex is case-sensitive', { title: { $regex: '^a' } }, []],
        ["$regex with $options 'i'", { title: { $regex: '^a', $options: 'i' } }, [1]],
        ['$regex anywhere in the string', { title: { $regex: 'ta' } }, [2, 4]],
        ['$regex on a dotted path', { 'author.name': { $regex: '^ann$', $options: 'i' } }, [1, 3]],
        ['$regex never matches non-strings', { views: { $regex: '5' } }, []],
        ['$not with $regex', { title: { $not: { $regex: 'a$' } } }, [5]],
      ])('%s', async (_, filter, expected) => {
        expect(await matching(filter)).toEqual(expected);
      });
    });

    describe('text form ($asText)', () => {
      const VALUES: StoredDocument[] = [
        { id: 1, value: 5 },
        { id: 2, value: 15 },
        { id: 3, value: 150.5 },
        { id: 4, value: true },
        { id: 5, value: 'x5' },
        { id: 6 },
        { id: 7, value: null },
        { id: 8, value: { five: 5 } },
        { id: 9, value: [5] },
        { id: 10, value: false, nested: { value: 25 } },
        { id: 11, value: -0.5 },
        { id: 12, items: [{ value: 5 }, { value: 'a' }] },
        { id: 13, items: [{ value: 6 }] },
      ];
      const textMatching = async (filter: Filter): Promise<unknown[]> => {
        const values = store.collection('values');
        await values.insertMany(VALUES);
        return ids(await values.find(filter, { sort: [['id', 1]] }));
      };

      test.each<[string, Filter, number[]]>([
        ['numbers, booleans and strings by their text; never null, missing, objects or arrays', { value: { $asText: { $regex: '5' } } }, [1, 2, 3, 5, 11]],
        ['anchored', { value: { $asText: { $regex: '^1' } } }, [2, 3]],
        ['a float in shortest decimal form', { value: { $asText: { $regex: '^-0\\.5$' } } }, [11]],
        ['booleans as true and false', { value: { $asText: { $regex: '^(true|false)$' } } }, [4, 10]],
        ["case-insensitive with $options 'i'", { value: { $asText: { $regex: '^TRUE$', $options: 'i' } } }, [4]],
        ['$not matches what has no text', { value: { $not: { $asText: { $regex: '5' } } } }, [4, 6, 7, 8, 9, 10, 12, 13]],
        ['beside another operator', { value: { $asText: { $regex: '5' }, $gt: 10 } }, [2, 3]],
        ['on a dotted path', { 'nested.value': { $asText: { $regex: '^2' } } }, [10]],
        ['inside $or', { $or: [{ value: { $asText: { $regex: '^15' } } }, { id: 4 }] }, [2, 3, 4]],
        ['inside $elemMatch, item by item', { items: { $elemMatch: { value: { $asText: { $regex: '5' } } } } }, [12]],
        ['inside $elemMatch with another condition on the item', { items: { $elemMatch: { value: { $asText: { $regex: '5|a' }, $gt: 'a' } } } }, []],
        ['inside $elemMatch in a branch of $or', { $or: [{ items: { $elemMatch: { value: { $asText: { $regex: '^6$' } } } } }, { id: 1 }] }, [1, 13]],
        ['inside $elemMatch under $nor', { $nor: [{ items: { $elemMatch: { value: { $asText: { $regex: '^6$' } } } }, id: { $gt: 10 } }] }, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]],
      ])('%s', async (_, filter, expected) => {
        expect(await textMatching(filter)).toEqual(expected);
      });

      test('inside $elemMatch: counts, updates and deletes select the same documents', async () => {
        const inList: Filter = { items: { $elemMatch: { value: { $asText: { $regex: '^\\d$' } } } } };
        await textMatching({});
        const values = store.collection('values');
        expect(await values.countDocuments(inList)).toBe(2);
        expect(await values.updateMany(inList, { $set: { seen: true } })).toBe(2);
        expect(ids(await values.find({ seen: true }, { sort: [['id', 1]] }))).toEqual([12, 13]);
        expect(await values.deleteOne({ ...inList, id: 13 })).toBe(1);
        expect(ids(await values.find({ seen: true }))).toEqual([12]);
      });
    });

    describe('text form ($asText) inside $elemMatch, on lists of objects as repeatable components store them', () => {
      const LISTS: StoredDocument[] = [
        { id: 1, blocks: [{ n: 15, flag: true, label: 'a5', meta: { views: 7 } }, { n: 2, flag: false, label: 'b' }] },
        { id: 2, blocks: [{ n: 5.5, label: 'x' }, { n: null, tags: [5, 'q'] }] },
        { id: 3, blocks: [{ n: '15', flag: 'true' }] },
        { id: 4, blocks: [] },
        { id: 5 },
        { id: 6, blocks: [{ n: [15], meta: [{ views: 7 }] }] },
        { id: 7, blocks: [{ inner: [{ n: 25 }, { n: 3, flag: true }] }] },
        { id: 8, blocks: { n: 15 } },
        { id: 9, nums: [1, 25, true], blocks: [{ n: -0.5, meta: null }] },
      ];
      const listMatching = async (filter: Filter): Promise<unknown[]> => {
        const lists = store.collection('lists');
        await lists.insertMany(LISTS);
        return ids(await lists.find(filter, { sort: [['id', 1]] }));
      };
      const text = (regex: string, options?: string): Filter => ({ $asText: { $regex: regex, ...(options ? { $options: options } : {}) } });

      test.each<[string, Filter, number[]]>([
        ['numbers, strings and floats by their text; never an array, never outside an array', { blocks: { $elemMatch: { n: text('5') } } }, [1, 2, 3, 9]],
        ['booleans as true and false, strings as they are', { blocks: { $elemMatch: { flag: text('^true$') } } }, [1, 3]],
        ['every condition on one element', { blocks: { $elemMatch: { n: text('^2$'), flag: true } } }, []],
        ['every condition on one element, met', { blocks: { $elemMatch: { n: text('^2$'), flag: false } } }, [1]],
        ['beside a range on the same field, compared within its type', { blocks: { $elemMatch: { n: { ...text('5'), $gt: 10 } } } }, [1]],
        ['on a dotted path in the element, never through an array', { blocks: { $elemMatch: { 'meta.views': text('^7$') } } }, [1]],
        ['beside a condition whose dotted path reads through an array', { blocks: { $elemMatch: { 'meta.views': 7, n: text('5') } } }, [1]],
        ['in a nested $elemMatch', { blocks: { $elemMatch: { inner: { $elemMatch: { n: text('^2') } } } } }, [7]],
        ['in a nested $elemMatch, with another condition on the nested element', { blocks: { $elemMatch: { inner: { $elemMatch: { n: text('^3$'), flag: true } } } } }, [7]],
        ['on the elements of a list of scalars', { nums: { $elemMatch: text('^tru') } }, [9]],
        ['on the elements of a list of scalars, beside a range', { nums: { $elemMatch: { ...text('5'), $gt: 20 } } }, [9]],
        ['under $not in the element: what has no matching text, null, missing and arrays included', { blocks: { $elemMatch: { n: { $not: text('5') } } } }, [1, 2, 6, 7]],
        ['in a branch of $or in the element', { blocks: { $elemMatch: { $or: [{ n: text('^5') }, { label: 'b' }] } } }, [1, 2]],
        ['under $nor around the $elemMatch', { $nor: [{ blocks: { $elemMatch: { n: text('5') } } }] }, [4, 5, 6, 7, 8]],
        ['under $not around the $elemMatch', { blocks: { $not: { $elemMatch: { n: text('5') } } } }, [4, 5, 6, 7, 8]],
        ['beside $in with null and $exists', { blocks: { $elemMatch: { n: { $in: [null, 2] }, label: text('.') } } }, [1]],
        ['beside equality on a list, null and $not', { blocks: { $elemMatch: { tags: 5, n: null, label: { $not: text('x') } } } }, [2]],
        ['beside $size and $exists', { blocks: { $elemMatch: { tags: { $size: 2 }, n: { $exists: true, $not: text('.') } } } }, [2]],
        ['beside $nin and $ne', { blocks: { $elemMatch: { label: { $nin: ['a5', 'x'] }, n: { $ne: 15, ...text('^\\d+$') } } } }, [1, 3]],
        ['beside a case-insensitive $regex', { blocks: { $elemMatch: { label: { $regex: '^A', $options: 'i' }, n: text('5') } } }, [1]],
        ["case-insensitive with $options 'i'", { blocks: { $elemMatch: { flag: text('^TRUE$', 'i') } } }, [1, 3]],
        ['a pattern that is a lone $ is a pattern, not a field path', { blocks: { $elemMatch: { n: text('$') } } }, [1, 2, 3, 9]],
        ['beside other conditions on the document', { blocks: { $elemMatch: { n: text('5') } }, id: { $gt: 1 }, nums: { $exists: false } }, [2, 3]],
      ])('%s', async (_, filter, expected) => {
        expect(await listMatching(filter)).toEqual(expected);
      });
    });

    describe('logical operators and dotted paths', () => {
      test.each<[string, Filter, number[]]>([
        ['$or', { $or: [{ views: 0 }, { title: 'Alpha' }] }, [1, 5]],
        ['$and', { $and: [{ views: { $gte: 5 } }, { views: { $lte: 10 } }] }, [1, 2, 4]],
        ['$nor', { $nor: [{ views: 5 }, { tags: 'news' }] }, [3]],
        ['$and of $or', { $and: [{ $or: [{ views: 5 }, { views: 0 }] }, { $or: [{ tags: 'news' }, { rating: 3 }] }] }, [4, 5]],
        ['$not', { views: { $not: { $gt: 5 } } }, [2, 4, 5]],
        ['dotted path equality', { 'author.name': 'Ann' }, [1]],
        ['$exists false on a dotted path', { 'author.age': { $exists: false } }, [3, 4, 5]],
        ['empty filter matches everything', {}, [1, 2, 3, 4, 5]],
      ])('%s', async (_, filter, expected) => {
        expect(await matching(filter)).toEqual(expected);
      });
    });

    describe('sort, skip, limit, projection', () => {
      const ordered = async (options: FindOptions, filter: Filter = {}): Promise<unknown[]> => ids(await articles.find(filter, options));

      test('sorts ascending and descending with a tie-breaker', async () => {
        expect(await ordered({ sort: [['views', 1], ['id', 1]] })).toEqual([5, 2, 4, 1, 3]);
        expect(await ordered({ sort: [['views', -1], ['id', -1]] })).toEqual([3, 1, 4, 2, 5]);
      });

      testUnless('sortOrder')('null and missing sort first ascending, last descending, as equals', async () => {
        expect(await ordered({ sort: [['publishedAt', 1], ['id', 1]] })).toEqual([2, 3, 5, 1, 4]);
        expect(await ordered({ sort: [['publishedAt', -1], ['id', 1]] })).toEqual([4, 1, 5, 2, 3]);
      });

      testUnless('sortOrder')('strings sort by code point: upper case, then lower case, then accented', async () => {
        expect(await ordered({ sort: [['title', 1]] })).toEqual([1, 3, 2, 4, 5]);
      });

      testUnless('sortOrder')('sorts by a dotted path', async () => {
        expect(await ordered({ sort: [['author.name', 1], ['id', 1]] })).toEqual([4, 5, 1, 2, 3]);
      });

      testUnless('sortOrder')('an array field sorts by its smallest element ascending and largest descending', async () => {
        const withTags = { tags: { $size: 2 } };
        await articles.insertOne({ id: 6, tags: ['alpha', 'zulu'] });
        expect(await ordered({ sort: [['tags', 1]] }, { $or: [withTags, { id: 2 }] })).toEqual([6, 1, 2]);
        expect(await ordered({ sort: [['tags', -1], ['id', 1]] }, { $or: [withTags, { id: 2 }] })).toEqual([6, 1, 2]);
      });

      test('skip and limit apply after the sort', async () => {
        expect(await ordered({ sort: [['id', 1]], skip: 1, limit: 2 })).toEqual([2, 3]);
        expect(await ordered({ sort: [['id', -1]], skip: 4, limit: 10 })).toEqual([1]);
        expect(await ordered({ sort: [['id', 1]], skip: 10 })).toEqual([]);
      });

      test('a limit of 0 means no limit', async () => {
        expect(await ordered({ sort: [['id', 1]], limit: 0 })).toEqual([1, 2, 3, 4, 5]);
      });

      test('skip and limit apply to filtered results', async () => {
        expect(await ordered({ sort: [['id', 1]], skip: 1, limit: 1 }, { views: 5 })).toEqual([4]);
      });

      test('refuses negative or fractional skip and limit', async () => {
        await expect(articles.find({}, { skip: -1 })).rejects.toThrow(/skip/);
        await expect(articles.find({}, { limit: 1.5 })).rejects.toThrow(/limit/);
      });

      test('projection returns only the named top-level fields that exist', async () => {
        const found = await articles.find({ id: { $in: [1, 3] } }, { sort: [['id', 1]], projection: ['id', 'title', 'publishedAt'] });
        expect(found).toEqual([
          { id: 1, title: 'Alpha', publishedAt: '2024-01-01T00:00:00.000Z' },
          { id: 3, title: 'Gamma' },
        ]);
      });

      test('findOne takes the first by sort, with projection; null when nothing matches', async () => {
        expect(await articles.findOne({ views: 5 }, { sort: [['id', -1]], projection: ['id'] })).toEqual({ id: 4 });
        expect(await articles.findOne({ views: 999 })).toBeNull();
      });

      test('documents come back as stored, without engine fields', async () => {
        expect(await articles.findOne({ id: 2 })).toEqual(ARTICLES[1]);
      });
    });

    describe('byte allowance', () => {
      // the engines count what they read (the stored JSON text, or the documents' size as JSON): about the JSON length
      const aboutJson = (spent: number, documents: StoredDocument[]) => {
        const json = documents.reduce((bytes, document) => bytes + JSON.stringify(document).length, 0);
        expect(spent).toBeGreaterThanOrEqual(json * 0.8);
        expect(spent).toBeLessThanOrEqual(json * 1.5);
      };

      test('the documents find, findPage and findOne return are counted against the allowance they are given', async () => {
        const allowance = createByteAllowance(1_000_000);
        const all = await articles.find({}, { allowance });
        aboutJson(bytesSpent(allowance), all);
        const page = createByteAllowance(1_000_000);
        const { documents, total } = await articles.findPage({}, { sort: [['id', 1]], limit: 2, allowance: page });
        expect(total).toBe(5);
        aboutJson(bytesSpent(page), documents);
        const one = createByteAllowance(1_000_000);
        const found = await articles.findOne({ id: 3 }, { allowance: one });
        aboutJson(bytesSpent(one), [found!]);
      });

      test('a read that takes the tally past the allowance is refused; reads share one tally', async () => {
        const measured = createByteAllowance(1_000_000);
        await articles.find({}, { allowance: measured });
        const allowance = createByteAllowance(Math.ceil(bytesSpent(measured) * 1.5));
        await articles.find({}, { allowance });
        await expect(articles.find({}, { allowance })).rejects.toBeInstanceOf(AllowanceSpentError);
        await expect(articles.findPage({}, { limit: 1, allowance })).rejects.toBeInstanceOf(AllowanceSpentError);
        // a read without one is not counted
        expect(await articles.find({})).toHaveLength(5);
      });
    });

    describe('count', () => {
      test('countDocuments applies the same filter as find', async () => {
        expect(await articles.countDocuments({})).toBe(5);
        expect(await articles.countDocuments({ views: 5 })).toBe(2);
        expect(await articles.countDocuments({ publishedAt: null })).toBe(2);
        expect(await articles.countDocuments({ comments: { $elemMatch: { by: 'x' } } })).toBe(2);
      });

      test.each<[string, Filter]>([
        ['every document', {}],
        ['an indexed condition', { views: { $gte: 5 } }],
        ['text searches', { $or: [{ title: { $regex: 'ETA', $options: 'i' } }, { title: { $regex: 'mma', $options: 'i' } }] }],
        ['a condition on array elements', { comments: { $elemMatch: { by: 'x' } } }],
      ])('findPage answers find and countDocuments of one filter: %s', async (_, filter) => {
        await articles.createIndex({ keys: [['title', 1]], text: true });
        const options: FindOptions = { sort: [['views', -1], ['id', 1]], skip: 1, limit: 2 };
        const [documents, total] = await Promise.all([articles.find(filter, options), articles.countDocuments(filter)]);
        expect(await articles.findPage(filter, options)).toEqual({ documents, total });
        expect(await store.collection('nothing_here').findPage(filter, options)).toEqual({ documents: [], total: 0 });
      });

      test('an unknown collection is empty', async () => {
        expect(await store.collection('nothing_here').countDocuments({})).toBe(0);
        expect(await store.collection('nothing_here').find({})).toEqual([]);
      });
    });

    describe('findInBatches', () => {
      test('walks every match in batches of the given size', async () => {
        const batches: StoredDocument[][] = [];
        for await (const batch of articles.findInBatches({ views: { $gte: 5 } }, 2)) batches.push(batch);
        expect(batches.map((batch) => batch.length)).toEqual([2, 2]);
        expect(batches.flat().map((document) => document.id).sort()).toEqual([1, 2, 3, 4]);
        expect(batches.flat().find((document) => document.id === 2)).toEqual(ARTICLES[1]);
      });

      test('yields nothing for an empty result and refuses a bad batch size', async () => {
        const batches: StoredDocument[][] = [];
        for await (const batch of articles.findInBatches({ id: 99 }, 10)) batches.push(batch);
        expect(batches).toEqual([]);
        await expect(articles.findInBatches({}, 0)[Symbol.asyncIterator]().next()).rejects.toThrow(/batch size/);
      });

      test('refuses an unsafe filter', async () => {
        await expect(articles.findInBatches({ $where: '1' }, 10)[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(UnsafeFilterError);
      });
    });

    describe('copies', () => {
      test('changing a returned document does not change the stored one', async () => {
        const found = await articles.findOne({ id: 1 });
        (found!.author as StoredDocument).name = 'changed';
        (found!.tags as string[]).push('changed');
        expect(await articles.findOne({ id: 1 })).toEqual(ARTICLES[0]);
      });

      test('changing an inserted document afterwards does not change the stored one', async () => {
        const document: StoredDocument = { id: 9, nested: { value: 1 } };
        await articles.insertOne(document);
        (document.nested as StoredDocument).value = 2;
        expect(await articles.findOne({ id: 9 })).toEqual({ id: 9, nested: { value: 1 } });
      });
    });

    describe('updates', () => {
      test('updateOne changes one matching document and returns 1', async () => {
        expect(await articles.updateOne({ views: 5 }, { $set: { flagged: true } })).toBe(1);
        expect(await articles.countDocuments({ flagged: true })).toBe(1);
      });

      test('updateMany changes every match and returns the count', async () => {
        expect(await articles.updateMany({ views: 5 }, { $set: { views: 6, flagged: true } })).toBe(2);
        expect(await matching({ views: 6, flagged: true })).toEqual([2, 4]);
      });

      test('returns the matched count even when nothing changes', async () => {
        expect(await articles.updateOne({ id: 1 }, { $set: { views: 10 } })).toBe(1);
      });

      test('returns 0 when nothing matches', async () => {
        expect(await articles.updateOne({ id: 99 }, { $set: { views: 1 } })).toBe(0);
        expect(await articles.updateMany({ id: 99 }, { $set: { views: 1 } })).toBe(0);
      });

      test('$unset removes fields, $set on a dotted path creates or replaces nested fields', async () => {
        await articles.updateOne({ id: 2 }, { $set: { 'author.age': 41, 'seo.meta.title': 'B' }, $unset: ['tags', 'publishedAt'] });
        expect(await articles.findOne({ id: 2 })).toEqual({
          id: 2,
          title: 'beta',
          views: 5,
          author: { name: 'Bob', age: 41 },
          comments: [],
          seo: { meta: { title: 'B' } },
        });
      });

      test('$set can store null and nested arrays of objects', async () => {
        await articles.updateOne({ id: 5 }, { $set: { publishedAt: null, blocks: [{ __component: 'a.b', items: [1, 2] }] } });
        expect(await articles.findOne({ id: 5 }, { projection: ['publishedAt', 'blocks'] })).toEqual({
          publishedAt: null,
          blocks: [{ __component: 'a.b', items: [1, 2] }],
        });
      });
    });

    describe('deletes', () => {
      test('deleteOne removes one match', async () => {
        expect(await articles.deleteOne({ views: 5 })).toBe(1);
        expect(await articles.countDocuments({ views: 5 })).toBe(1);
      });

      test('deleteMany removes every match', async () => {
        expect(await articles.deleteMany({ views: 5 })).toBe(2);
        expect(await matching({})).toEqual([1, 3, 5]);
        expect(await articles.deleteMany({ views: 5 })).toBe(0);
      });

      test('deleteMany with an empty filter empties the collection', async () => {
        expect(await articles.deleteMany({})).toBe(5);
        expect(await articles.countDocuments({})).toBe(0);
      });
    });

    describe('unique indexes', () => {
      let users: Collection;
      beforeEach(async () => {
        users = store.collection('users');
        await users.createIndex({ keys: [['email', 1]], unique: true });
      });

      testUnless('uniqueIndexes')('refuse a duplicate on insert', async () => {
        await users.insertOne({ email: 'a@example.com' });
        await expect(users.insertOne({ email: 'a@example.com' })).rejects.toBeInstanceOf(UniqueConstraintError);
        expect(await users.countDocuments({})).toBe(1);
      });

      testUnless('uniqueIndexes')('report the collection and fields', async () => {
        await users.insertOne({ email: 'a@example.com' });
        const error = await users.insertOne({ email: 'a@example.com' }).catch((caught: unknown) => caught);
        expect(error).toMatchObject({ collection: 'users', fields: ['email'] });
      });

      testUnless('uniqueIndexes')('refuse a duplicate within insertMany', async () => {
        await expect(users.insertMany([{ email: 'b@example.com' }, { email: 'b@example.com' }])).rejects.toBeInstanceOf(UniqueConstraintError);
        // the embedded engine inserts nothing; MongoDB keeps the documents before the failing one
        expect([0, 1]).toContain(await users.countDocuments({ email: 'b@example.com' }));
      });

      testUnless('uniqueIndexes')('refuse an update that would collide, leaving the document unchanged', async () => {
        await users.insertMany([{ email: 'a@example.com', n: 1 }, { email: 'b@example.com', n: 2 }]);
        await expect(users.updateOne({ n: 2 }, { $set: { email: 'a@example.com' } })).rejects.toBeInstanceOf(UniqueConstraintError);
        expect(await users.findOne({ n: 2 }, { projection: ['email'] })).toEqual({ email: 'b@example.com' });
      });

      test('allow a document to keep its own value', async () => {
        await users.insertOne({ email: 'a@example.com', n: 1 });
        expect(await users.updateOne({ n: 1 }, { $set: { email: 'a@example.com', n: 2 } })).toBe(1);
      });

      test('free a value once its holder is deleted or changed', async () => {
        await users.insertOne({ email: 'a@example.com', n: 1 });
        await users.updateOne({ n: 1 }, { $set: { email: 'c@example.com' } });
        await users.insertOne({ email: 'a@example.com', n: 2 });
        await users.deleteOne({ n: 2 });
        await users.insertOne({ email: 'a@example.com', n: 3 });
        expect(await users.countDocuments({})).toBe(2);
      });

      test('let null and missing values through, any number of times', async () => {
        await users.insertMany([{ n: 1 }, { n: 2 }, { email: null, n: 3 }, { email: null, n: 4 }]);
        expect(await users.countDocuments({})).toBe(4);
      });

      testUnless('uniqueIndexes')('compound: equal tuples collide, a missing non-leading field counts as null', async () => {
        const entries = store.collection('entries');
        await entries.createIndex({ keys: [['documentId', 1], ['locale', 1]], unique: true });
        await entries.insertMany([{ documentId: 'd1', locale: 'en' }, { documentId: 'd1', locale: 'fr' }, { documentId: 'd2' }]);
        await expect(entries.insertOne({ documentId: 'd1', locale: 'en' })).rejects.toBeInstanceOf(UniqueConstraintError);
        await expect(entries.insertOne({ documentId: 'd2', locale: null })).rejects.toBeInstanceOf(UniqueConstraintError);
        await entries.insertMany([{ locale: 'en' }, { locale: 'en' }]);
        expect(await entries.countDocuments({})).toBe(5);
      });

      test('creating a unique index over duplicates fails', async () => {
        await articles.insertOne({ id: 6, views: 5 });
        await expect(articles.createIndex({ keys: [['views', 1]], unique: true })).rejects.toBeInstanceOf(UniqueConstraintError);
      });

      test('createIndex is idempotent and listIndexes names every index', async () => {
        await users.createIndex({ keys: [['email', 1]], unique: true });
        await users.createIndex({ keys: [['createdAt', -1]] });
        await users.createIndex({ keys: [['createdAt', -1]] });
        const indexes = await users.listIndexes();
        expect(indexes).toEqual(
          expect.arrayContaining([
            { keys: [['email', 1]], unique: true, name: 'email_1' },
            { keys: [['createdAt', -1]], unique: false, name: 'createdAt_-1' },
          ]),
        );
        expect(indexes).toHaveLength(2);
      });

      test('an index that extends a plain one replaces it; one that another extends is served by it', async () => {
        await users.insertMany([{ status: 'a', views: 2, kind: 'x' }, { status: 'a', views: 1, kind: 'y' }]);
        await users.createIndex({ keys: [['status', 1], ['views', 1]] });
        await users.createIndex({ keys: [['status', 1], ['views', 1], ['kind', 1]] });
        await users.createIndex({ keys: [['status', 1]] });
        await users.createIndex({ keys: [['status', 1], ['views', -1], ['kind', 1]] });
        const plain = (await users.listIndexes()).filter((index) => !index.unique).map((index) => index.name).sort();
        expect(plain).toEqual(['status_1_views_-1_kind_1', 'status_1_views_1_kind_1']);
        // the replacing index answers what the replaced one did
        expect((await users.find({ status: 'a', views: { $gte: 1 } }, { sort: [['views', 1]] })).map((user) => user.kind)).toEqual(['y', 'x']);
      });

      testUnless('uniqueIndexes')('persist across reopening', async () => {
        await users.insertOne({ email: 'a@example.com' });
        await store.close();
        store = await fixture.open();
        await expect(store.collection('users').insertOne({ email: 'a@example.com' })).rejects.toBeInstanceOf(UniqueConstraintError);
      });
    });

    describe('sequences', () => {
      test('count from 1, independently per name', async () => {
        expect(await store.nextSequence('articles')).toBe(1);
        expect(await store.nextSequence('articles')).toBe(2);
        expect(await store.nextSequence('users')).toBe(1);
        expect(await store.nextSequence('articles')).toBe(3);
      });

      test('never hand out a value twice under concurrency', async () => {
        const values = await Promise.all(Array.from({ length: 20 }, () => store.nextSequence('c')));
        expect(new Set(values).size).toBe(20);
        expect(Math.max(...values)).toBe(20);
      });

      test('persist across reopening', async () => {
        await store.nextSequence('articles');
        await store.nextSequence('articles');
        await store.close();
        store = await fixture.open();
        expect(await store.nextSequence('articles')).toBe(3);
      });
    });

    describe('transactions', () => {
      test('return the work result and keep its writes', async () => {
        const result = await store.transaction(async () => {
          await articles.insertOne({ id: 6 });
          await articles.updateOne({ id: 1 }, { $set: { views: 11 } });
          return 'done';
        });
        expect(result).toBe('done');
        expect(await matching({ $or: [{ id: 6 }, { views: 11 }] })).toEqual([1, 6]);
      });

      test('see their own writes', async () => {
        await store.transaction(async () => {
          await articles.insertOne({ id: 6 });
          expect(await articles.countDocuments({ id: 6 })).toBe(1);
        });
      });

      test('roll back every write when the work throws', async () => {
        if (!fixture.atomicTransactions) return;
        await expect(
          store.transaction(async () => {
            await articles.insertOne({ id: 6 });
            await articles.updateMany({}, { $set: { views: 0 } });
            await articles.deleteOne({ id: 1 });
            throw new Error('abort');
          }),
        ).rejects.toThrow('abort');
        expect(await articles.find({}, { sort: [['id', 1]] })).toEqual(ARTICLES);
      });

      test('pass the error of the work through', async () => {
        const failure = new Error('specific');
        await expect(store.transaction(async () => Promise.reject(failure))).rejects.toBe(failure);
      });
    });

    describe('refusals', () => {
      test.each<[string, Filter]>([
        ['$where', { $where: 'this.views > 1' }],
        ['$function', { views: { $function: { body: 'return true', args: [], lang: 'js' } } }],
        ['$expr', { $expr: { $gt: ['$views', 1] } }],
        ['$accumulator nested in $and', { $and: [{ views: { $accumulator: {} } }] }],
        ['$jsonSchema', { $jsonSchema: {} }],
        ['a __proto__ key', JSON.parse('{"__proto__": {"views": 5}}') as Filter],
        ['a constructor key', { constructor: { prototype: 1 } }],
        ['a RegExp instance', { title: /a/ }],
      ])('refuse a filter with %s everywhere', async (_, filter) => {
        await expect(articles.find(filter)).rejects.toBeInstanceOf(UnsafeFilterError);
        await expect(articles.findOne(filter)).rejects.toBeInstanceOf(UnsafeFilterError);
        await expect(articles.countDocuments(filter)).rejects.toBeInstanceOf(UnsafeFilterError);
        await expect(articles.updateMany(filter, { $set: { views: 0 } })).rejects.toBeInstanceOf(UnsafeFilterError);
        await expect(articles.deleteMany(filter)).rejects.toBeInstanceOf(UnsafeFilterError);
        expect(await articles.countDocuments({ views: 0 })).toBe(1);
      });

      test('refuse values that do not survive a JSON round trip', async () => {
        await expect(articles.insertOne({ id: 7, when: new Date() as unknown as string })).rejects.toThrow(/Date/);
        await expect(articles.insertOne({ id: 7, n: Number.NaN })).rejects.toThrow(/non-finite/);
      });

      test('refuse invalid collection names', () => {
        expect(() => store.collection('$cmd')).toThrow(/collection name/);
        expect(() => store.collection('')).toThrow(/collection name/);
      });
    });

    describe('aggregate', () => aggregateContract(() => store));

    describe('store', () => {
      test('lists the collections that hold documents', async () => {
        store.collection('never_written');
        expect(await store.listCollections()).toContain('articles');
        expect(await store.listCollections()).not.toContain('never_written');
      });

      test('answers ping', async () => {
        expect(await store.ping()).toBe(true);
      });

      test('keeps documents across reopening', async () => {
        await store.close();
        store = await fixture.open();
        expect(await store.collection('articles').find({}, { sort: [['id', 1]] })).toEqual(ARTICLES);
      });
    });
  });
}
