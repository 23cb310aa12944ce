import { MongoBulkWriteError, MongoServerError, type WriteError } from 'mongodb';
import { FILTER_OPERATORS, UniqueConstraintError, type Filter } from '../../src/storage/types';
import { UnsafeFilterError } from '../../src/storage/filter-guard';
import { databaseNameOf, redactConnectionString } from '../../src/storage/mongodb/connection-string';
import { toStoreError } from '../../src/storage/mongodb/mongodb-errors';
import {
  fromMongoIndex,
  toMongoIndex,
  toMongoQuery,
  toMongoProjection,
  toMongoSort,
  toMongoUpdate,
} from '../../src/storage/mongodb/translate-query';

describe('toMongoQuery', () => {
  const cases: Array<[operator: (typeof FILTER_OPERATORS)[number] | 'implicit $eq' | 'dotted path', Filter]> = [
    ['implicit $eq', { title: 'Alpha', publishedAt: null }],
    ['dotted path', { 'author.name': 'Ann', 'seo.meta.title': { $exists: true } }],
    ['$and', { $and: [{ views: { $gte: 5 } }, { views: { $lte: 10 } }] }],
    ['$or', { $or: [{ views: 0 }, { title: 'Alpha' }] }],
    ['$nor', { $nor: [{ views: 5 }, { tags: 'news' }] }],
    ['$not', { views: { $not: { $gt: 5 } }, title: { $not: { $regex: 'a$' } } }],
    ['$eq', { views: { $eq: 5 }, publishedAt: { $eq: null } }],
    ['$ne', { views: { $ne: 5 }, publishedAt: { $ne: null } }],
    ['$lt', { views: { $lt: 5 } }],
    ['$lte', { publishedAt: { $lte: '2024-01-01T00:00:00.000Z' } }],
    ['$gt', { views: { $gt: 5 } }],
    ['$gte', { views: { $gte: 5 } }],
    ['$in', { tags: { $in: ['news', 'tech'] }, locale: { $in: [null, 'en'] } }],
    ['$nin', { tags: { $nin: ['news'] } }],
    ['$regex', { title: { $regex: '^a\\.b' } }],
    ['$options', { title: { $regex: '^a', $options: 'i' } }],
    ['$exists', { publishedAt: { $exists: false } }],
    ['$elemMatch', { comments: { $elemMatch: { by: 'x', score: { $gte: 5 } } }, tags: { $elemMatch: { $eq: 'tech' } } }],
    ['$size', { tags: { $size: 0 } }],
  ];

  const textOf = (path: string, regex: string, options = '') => ({
    $expr: { $regexMatch: { input: { $convert: { input: `$${path}`, to: 'string', onError: null, onNull: null } }, regex: { $literal: regex }, options } },
  });
  const asTextCases: Array<[string, Filter, Filter]> = [
    ['alone', { views: { $asText: { $regex: '5' } } }, textOf('views', '5')],
    ['beside other operators and fields', { title: 'a', views: { $gt: 1, $asText: { $regex: '^1', $options: 'i' } } }, { $and: [{ title: 'a' }, { $and: [{ views: { $gt: 1 } }, textOf('views', '^1', 'i')] }] }],
    ['under $not', { views: { $not: { $asText: { $regex: '5' } } } }, { $nor: [textOf('views', '5')] }],
    ['in a branch of $or', { $or: [{ 'seo.views': { $asText: { $regex: '5' } } }, { id: 1 }] }, { $or: [textOf('seo.views', '5'), { id: 1 }] }],
  ];

  test('covers every operator Folio generates', () => {
    const filters = [...cases.map(([, filter]) => filter), ...asTextCases.map(([, filter]) => filter)];
    const covered = new Set(filters.flatMap((filter) => JSON.stringify(filter).match(/"\$\w+"/g) ?? []).map((key) => key.slice(1, -1)));
    expect([...FILTER_OPERATORS].filter((operator) => !covered.has(operator))).toEqual([]);
  });

  test.each(cases)('passes %s through as the same MongoDB query document', (_, filter) => {
    expect(toMongoQuery(filter)).toEqual(filter);
  });

  test.each(asTextCases)("turns Folio's $asText into an $expr on the field's text: %s", (_, filter, expected) => {
    expect(toMongoQuery(filter)).toEqual(expected);
  });

  test('turns an $elemMatch holding $asText into one $expr over the list, beside the rest of the filter', () => {
    const inList = { items: { $elemMatch: { n: { $asText: { $regex: '5' } } } } };
    const query = toMongoQuery({ ...inList, views: { $asText: { $regex: '1' } }, title: 'a' });
    expect(query).toEqual({ $and: [{ title: 'a' }, { $expr: expect.any(Object) }, textOf('views', '1')] });
    const listCondition = JSON.stringify((query.$and as object[])[1]);
    expect(listCondition).toContain('"$$ROOT.items"');
    expect(listCondition).toContain('"$regexMatch":{"input":{"$convert":{"input":"$$');
    expect(listCondition).not.toContain('_id');
    expect(toMongoQuery({ $nor: [{ ...inList, title: 'a' }] })).toEqual({ $nor: [{ $and: [{ title: 'a' }, { $expr: expect.any(Object) }] }] });
    expect(toMongoQuery({ items: { $not: inList.items } })).toEqual({ $nor: [{ $expr: expect.any(Object) }] });
  });

  test.each<[string, Filter]>([
    ['a malformed $asText at the top', { views: { $asText: { $regex: 5 } } }],
    ['a malformed $asText in a list', { items: { $elemMatch: { n: { $asText: { $regex: '5', $options: 'g' } } } } }],
    ['$not without operators beside $asText in a list', { items: { $elemMatch: { n: { $not: 5 }, m: { $asText: { $regex: '5' } } } } }],
    ['a path segment no expression can name', { items: { $elemMatch: { 'a..b': 1, m: { $asText: { $regex: '5' } } } } }],
    ['$regex options that would read as a field path, beside $asText in a list', { items: { $elemMatch: { name: { $regex: 'x', $options: '$secret' }, m: { $asText: { $regex: '5' } } } } }],
  ])('refuses %s', (_, filter) => {
    expect(() => toMongoQuery(filter)).toThrow(UnsafeFilterError);
  });

  test('returns a copy: changing the filter afterwards does not change what was sent', () => {
    const filter: Filter = { $or: [{ tags: { $in: ['a'] } }] };
    const translated = toMongoQuery(filter);
    ((filter.$or as Filter[])[0].tags as { $in: string[] }).$in.push('b');
    expect(translated).toEqual({ $or: [{ tags: { $in: ['a'] } }] });
  });

  test.each<[string, Filter]>([
    ['$where', { $where: 'sleep(1000)' }],
    ['$function', { views: { $function: { body: 'return 1', args: [], lang: 'js' } } }],
    ['$expr', { $expr: { $eq: ['$a', '$b'] } }],
    ['$accumulator', { $or: [{ views: { $accumulator: {} } }] }],
    ['$lookup-like keys', { $lookup: {} }],
    ['__proto__', JSON.parse('{"a": {"__proto__": {"$gt": 1}}}') as Filter],
  ])('refuses %s before anything reaches the server', (_, filter) => {
    expect(() => toMongoQuery(filter)).toThrow(UnsafeFilterError);
  });
});

describe('toMongoSort', () => {
  test('keeps the order of fields, integer-like names included', () => {
    expect(toMongoSort([['title', 1], ['2024', -1], ['author.name', -1]])).toEqual([
      ['title', 1],
      ['2024', -1],
      ['author.name', -1],
    ]);
  });
});

describe('toMongoProjection', () => {
  test('always leaves out _id', () => {
    expect(toMongoProjection(undefined)).toEqual({ _id: 0 });
    expect(toMongoProjection(['title', 'views'])).toEqual({ _id: 0, title: 1, views: 1 });
  });
});

describe('toMongoUpdate', () => {
  test('translates $set and $unset', () => {
    expect(toMongoUpdate({ $set: { title: 'B', 'seo.title': null }, $unset: ['tags', 'author.age'] })).toEqual({
      $set: { title: 'B', 'seo.title': null },
      $unset: { tags: '', 'author.age': '' },
    });
  });

  test('leaves out empty operators and answers null when nothing changes', () => {
    expect(toMongoUpdate({ $set: { a: 1 }, $unset: [] })).toEqual({ $set: { a: 1 } });
    expect(toMongoUpdate({ $set: {} })).toBeNull();
  });

  test('refuses operator and prototype paths and non-JSON values', () => {
    expect(() => toMongoUpdate({ $set: { $where: 1 } })).toThrow(/cannot update/);
    expect(() => toMongoUpdate({ $unset: ['a.__proto__'] })).toThrow(/cannot update/);
    expect(() => toMongoUpdate({ $set: { when: new Date() as unknown as string } })).toThrow(/Date/);
  });
});

describe('toMongoIndex and fromMongoIndex', () => {
  test('a plain index keeps its key order and gets MongoDB default name', () => {
    expect(toMongoIndex({ keys: [['publishedAt', -1], ['id', 1]] })).toEqual({
      key: [['publishedAt', -1], ['id', 1]],
      options: { name: 'publishedAt_-1_id_1' },
    });
  });

  test('a unique index leaves out documents whose leading key is null or missing', () => {
    const { options } = toMongoIndex({ keys: [['slug', 1], ['locale', 1]], unique: true, name: 'slug_unique' });
    expect(options).toMatchObject({ name: 'slug_unique', unique: true });
    const types = (options.partialFilterExpression as { slug: { $type: string[] } }).slug.$type;
    expect(types).toEqual(expect.arrayContaining(['string', 'number', 'bool', 'object', 'array']));
    expect(types).not.toContain('null');
    expect(Object.keys(options.partialFilterExpression!)).toEqual(['slug']);
  });

  test('reads listIndexes entries back, skipping _id', () => {
    expect(fromMongoIndex({ v: 2, key: { _id: 1 }, name: '_id_' })).toBeNull();
    expect(fromMongoIndex({ v: 2, key: { slug: 1, locale: -1 }, name: 'slug_1_locale_-1', unique: true, partialFilterExpression: {} })).toEqual({
      keys: [['slug', 1], ['locale', -1]],
      unique: true,
      name: 'slug_1_locale_-1',
    });
    expect(fromMongoIndex({ v: 2, key: { publishedAt: -1 }, name: 'publishedAt_-1' })).toEqual({ keys: [['publishedAt', -1]], unique: false, name: 'publishedAt_-1' });
  });

  test('refuses invalid keys', () => {
    expect(() => toMongoIndex({ keys: [] })).toThrow(/at least one key/);
    expect(() => toMongoIndex({ keys: [['$where', 1]] })).toThrow(/invalid index key/);
  });
});

describe('toStoreError', () => {
  test('turns a duplicate key error into UniqueConstraintError naming the fields', () => {
    const error = new MongoServerError({ message: 'E11000 duplicate key error collection: folio.users index: email_1 dup key: { email: "a" }', code: 11000, keyPattern: { email: 1 }, keyValue: { email: 'a' } });
    const translated = toStoreError(error, 'users', new Map());
    expect(translated).toBeInstanceOf(UniqueConstraintError);
    expect(translated).toMatchObject({ collection: 'users', fields: ['email'] });
  });

  test('names the fields of a bulk write duplicate from the index name', () => {
    const error = new MongoBulkWriteError(
      {
        message: 'E11000',
        code: 11000,
        // the shape of the driver's WriteError (its class is not exported at run time)
        writeErrors: [{ index: 1, code: 11000, errmsg: 'E11000 duplicate key error collection: folio.users index: email_1 dup key: { email: "b" }' }] as unknown as WriteError[],
      },
      {} as ConstructorParameters<typeof MongoBulkWriteError>[1],
    );
    const translated = toStoreError(error, 'users', new Map([['email_1', ['email']]]));
    expect(translated).toMatchObject({ collection: 'users', fields: ['email'] });
  });

  test('leaves other errors alone, labels included', () => {
    const error = new MongoServerError({ message: 'WriteConflict', code: 112, errorLabels: ['TransientTransactionError'] });
    expect(toStoreError(error, 'users', new Map())).toBe(error);
    const plain = new Error('x');
    expect(toStoreError(plain, 'users', new Map())).toBe(plain);
  });

  test('explains a conflicting index definition', () => {
    const error = new MongoServerError({ message: 'Index already exists with a different name', code: 85 });
    expect(String(toStoreError(error, 'users', new Map()))).toMatch(/index on users conflicts with an existing index/);
  });
});

describe('connection strings', () => {
  test('read the database name from the path', () => {
    expect(databaseNameOf('mongodb://mongo:27017/folio?replicaSet=rs0')).toBe('folio');
    expect(databaseNameOf('mongodb+srv://u:p@cluster0.example.net/cms')).toBe('cms');
    expect(databaseNameOf('mongodb://a:1,b:2/?replicaSet=rs0')).toBeUndefined();
    expect(databaseNameOf('mongodb://a:1')).toBeUndefined();
  });

  test('hide the password', () => {
    expect(redactConnectionString('mongodb://folio:s3cr%40t@mongo:27017/folio')).toBe('mongodb://folio:***@mongo:27017/folio');
    expect(redactConnectionString('mongodb://mongo:27017/folio')).toBe('mongodb://mongo:27017/folio');
  });
});
