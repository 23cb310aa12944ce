import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModels } from '../../src/models/load-models';
import { openStore } from '../../src/storage/open-store';
import type { Store, StoredDocument } from '../../src/storage/types';
import { createFilterTranslator } from '../../src/query/translate-filters';
import { EXAMPLE_SCHEMA } from '../support/test-server';

/** Every operator, translated once and run against the embedded storage engine. */

const models = loadModels(EXAMPLE_SCHEMA);
const article = models.contentTypes.get('api::article.article')!;
const category = models.contentTypes.get('api::category.category')!;

let root: string;
let store: Store;

const articles: StoredDocument[] = [
  { id: 1, documentId: 'a1', title: 'Hello World', views: 10, rating: 4.5, featured: true, publishDate: '2024-01-10', kind: 'news', category: 'c1', createdAt: '2024-01-10T10:00:00.000Z', seo: { id: 1, metaTitle: 'Seo A', keywords: [{ id: 1, value: 'x' }, { id: 2, value: 'y' }] } },
  { id: 2, documentId: 'a2', title: 'hello there', views: 20, rating: null, featured: false, publishDate: '2024-02-10', kind: 'tutorial', category: 'c2', createdAt: '2024-02-10T10:00:00.000Z', seo: { id: 3, metaTitle: 'Seo B', keywords: [{ id: 4, value: 'y' }] } },
  { id: 3, documentId: 'a3', title: 'Goodbye (really)', views: 30, featured: false, kind: 'opinion', createdAt: '2024-03-10T10:00:00.000Z' },
];

const translator = createFilterTranslator({
  models,
  maxStringLength: 50,
  maxDepth: 8,
  lookup: async (target, filter, field) => (await store.collection(target.collectionName).find(filter)).map((row) => row[field] ?? null),
});

const ids = async (filters: unknown): Promise<string[]> => {
  const filter = await translator.translate(article, filters);
  return (await store.collection('articles').find(filter, { sort: [['id', 1]] })).map((row) => row.documentId as string);
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-filters-'));
  store = await openStore({ client: 'embedded', options: {} }, root);
  await store.collection('articles').insertMany(articles);
  await store.collection('categories').insertMany([
    { id: 1, documentId: 'c1', name: 'Tech', parent: null },
    { id: 2, documentId: 'c2', name: 'Life', parent: 'c1' },
  ]);
});
afterAll(async () => {
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

test.each([
  ['eq', { title: { eq: 'Hello World' } }, ['a1']],
  ['eqi', { title: { eqi: 'HELLO WORLD' } }, ['a1']],
  ['ne', { kind: { ne: 'news' } }, ['a2', 'a3']],
  ['nei', { title: { nei: 'hello WORLD' } }, ['a2', 'a3']],
  ['lt', { views: { lt: 20 } }, ['a1']],
  ['lte', { views: { lte: 20 } }, ['a1', 'a2']],
  ['gt', { views: { gt: 20 } }, ['a3']],
  ['gte', { views: { gte: 20 } }, ['a2', 'a3']],
  ['in', { kind: { in: ['news', 'opinion'] } }, ['a1', 'a3']],
  ['notIn', { kind: { notIn: ['news', 'opinion'] } }, ['a2']],
  ['contains (case-sensitive)', { title: { contains: 'ello' } }, ['a1', 'a2']],
  ['contains does not ignore case', { title: { contains: 'HELLO' } }, []],
  ['notContains', { title: { notContains: 'World' } }, ['a2', 'a3']],
  ['containsi', { title: { containsi: 'HELLO' } }, ['a1', 'a2']],
  ['notContainsi', { title: { notContainsi: 'HELLO' } }, ['a3']],
  ['null (missing counts)', { rating: { null: true } }, ['a2', 'a3']],
  ['notNull', { rating: { notNull: true } }, ['a1']],
  ['notNull on a date (a boolean, not a date)', { publishDate: { notNull: true } }, ['a1', 'a2']],
  ['null: false on a datetime', { createdAt: { null: false } }, ['a1', 'a2', 'a3']],
  ['between', { views: { between: [15, 30] } }, ['a2', 'a3']],
  ['startsWith', { title: { startsWith: 'Hello' } }, ['a1']],
  ['startsWithi', { title: { startsWithi: 'hello' } }, ['a1', 'a2']],
  ['endsWith', { title: { endsWith: '(really)' } }, ['a3']],
  ['endsWithi', { title: { endsWithi: 'THERE' } }, ['a2']],
  ['field-level or lists values, each an eq', { views: { or: [10, 30] } }, ['a1', 'a3']],
  ['field-level and lists values: equal to each', { views: { and: [10, 10] } }, ['a1']],
  ['field-level and of two values matches nothing', { title: { and: ['Hello World', 'hello there'] } }, []],
  ['a null item is equal to null (absent counts)', { rating: { or: [4.5, null] } }, ['a1', 'a2', 'a3']],
  ['field-level and of nothing adds no condition', { views: { and: [] } }, ['a1', 'a2', 'a3']],
  ['field-level or of nothing matches nothing', { views: { or: [] } }, []],
  ['dates in a field-level or are compared in stored form', { createdAt: { or: [new Date('2024-01-10T10:00:00Z')] } }, ['a1']],
  ['contains on an integer compares its text', { views: { contains: 0 } }, ['a1', 'a2', 'a3']],
  ['startsWith on an integer', { views: { startsWith: 2 } }, ['a2']],
  ['notContains on a float', { rating: { notContains: 5 } }, ['a2', 'a3']],
  ['eqi on a float', { rating: { eqi: 4.5 } }, ['a1']],
  ['contains on a boolean compares true/false', { featured: { contains: false } }, ['a2', 'a3']],
  ['containsi on the numeric id', { id: { containsi: 3 } }, ['a3']],
  ['a date text operator takes the text as written', { publishDate: { startsWith: '2024-02' } }, ['a2']],
  ['gt on booleans: false before true', { featured: { gt: false } }, ['a1']],
  ['lte on booleans', { featured: { lte: false } }, ['a2', 'a3']],
  ['between on booleans', { featured: { between: [false, true] } }, ['a1', 'a2', 'a3']],
  ['lt false on booleans matches nothing', { featured: { lt: false } }, []],
  ['field-level not', { views: { not: { eq: 10 } } }, ['a2', 'a3']],
  ['and', { and: [{ featured: { eq: false } }, { views: { gt: 20 } }] }, ['a3']],
  ['or', { or: [{ kind: { eq: 'news' } }, { views: { eq: 30 } }] }, ['a1', 'a3']],
  ['not', { not: { kind: { eq: 'news' } } }, ['a2', 'a3']],
  ['empty or matches nothing', { or: [] }, []],
  ['boolean eq', { featured: { eq: true } }, ['a1']],
  ['date gt', { publishDate: { gt: '2024-01-31' } }, ['a2']],
  ['datetime lt (ISO strings)', { createdAt: { lt: new Date('2024-02-01T00:00:00Z') } }, ['a1']],
  ['documentId in', { documentId: { in: ['a1', 'a3'] } }, ['a1', 'a3']],
  ['numeric id in', { id: { in: [2, 3] } }, ['a2', 'a3']],
  ['component field', { seo: { metaTitle: { eq: 'Seo B' } } }, ['a2']],
  ['repeatable component: any item', { seo: { keywords: { value: { eq: 'x' } } } }, ['a1']],
  ['relation (deep)', { category: { name: { eq: 'Life' } } }, ['a2']],
  ['relation two levels deep', { category: { parent: { name: { eq: 'Tech' } } } }, ['a2']],
  ['regex characters are literal', { title: { contains: '(really' } }, ['a3']],
  ['dot is literal', { title: { contains: 'H.llo' } }, []],
])('%s', async (_name, filters, expected) => {
  expect(await ids(filters)).toEqual(expected);
});

test('inverse relation filters resolve through the owning side', async () => {
  const filter = await translator.translate(category, { articles: { title: { eq: 'hello there' } } });
  const rows = await store.collection('categories').find(filter);
  expect(rows.map((row) => row.documentId)).toEqual(['c2']);
});

test.each([
  ['unknown field', { nope: { eq: 1 } }, /Invalid key nope/],
  ['unknown operator', { title: { foo: 'x' } }, /Invalid operator foo/],
  ['a text operator on an object', { extra: { contains: { a: 1 } } }, /must be a string, a number or a boolean/],
  ['a range on JSON with an object bound', { extra: { gt: [1] } }, /must be a string, a number or a boolean/],
  ['media is not filterable', { cover: { eq: 1 } }, /Invalid key cover/],
  ['dynamic zones are not filterable', { sections: { eq: 1 } }, /Invalid key sections/],
  ['over-long string', { title: { contains: 'x'.repeat(51) } }, /longer than 50/],
  ['in needs an array', { kind: { in: 'news' } }, /needs an array/],
  ['between needs two values', { views: { between: [1] } }, /exactly two values/],
  ['or needs an array', { or: { title: { eq: 'x' } } }, /must be an array/],
  ['too deep', { not: { not: { not: { not: { not: { not: { not: { not: { not: { title: { eq: 'x' } } } } } } } } } } }, /deeper than 8/],
  ['prototype keys', JSON.parse('{"__proto__": {"eq": 1}}'), /Invalid key __proto__/],
])('refuses %s', async (_name, filters, message) => {
  await expect(translator.translate(article, filters)).rejects.toThrow(message);
});
