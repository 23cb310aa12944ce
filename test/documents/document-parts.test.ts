import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModels } from '../../src/models/load-models';
import { openStore } from '../../src/storage/open-store';
import { UniqueConstraintError, type Store, type StoredDocument } from '../../src/storage/types';
import type { RelationAttribute } from '../../src/models/types';
import { createRelationWrites, linkedValue, owningValues } from '../../src/documents/relation-writes';
import { entityIdsOf, parseRelationInput, resolveIds } from '../../src/documents/relation-input';
import { allOf, createDocumentReads, withTiebreak } from '../../src/documents/document-reads';
import { createUniqueCheck, reportingUniqueErrors, uniqueIssuesOf } from '../../src/documents/unique-values';
import { createDocumentVersions, sharedValuesOf } from '../../src/documents/document-versions';
import type { DocumentChange } from '../../src/documents/document-change';
import { EXAMPLE_SCHEMA } from '../support/test-server';

/** The document service's parts, each on its own against a real embedded store. */

const models = loadModels(EXAMPLE_SCHEMA);
const category = models.contentTypes.get('api::category.category')!;
const article = models.contentTypes.get('api::article.article')!;
const attribute = (owner: typeof category, name: string) => owner.attributes[name] as RelationAttribute;

const errorOf = async (work: () => Promise<unknown>) => {
  try {
    await work();
  } catch (error) {
    return error as { message: string; extensions: { error: { details: unknown } } };
  }
  throw new Error('expected a failure');
};

describe('relation writes: pure parts', () => {
  test('owningValues applies each change to the stored value; a to-one keeps the last id; an inverse side stores nothing', () => {
    const writes = [
      { name: 'parent', attribute: attribute(category, 'parent'), change: { kind: 'set' as const, items: ['a', 'b'] } },
      { name: 'children', attribute: attribute(category, 'children'), change: { kind: 'set' as const, items: ['c'] } },
      { name: 'tags', attribute: attribute(article, 'tags'), change: { kind: 'patch' as const, connect: [{ documentId: 't3', position: { start: true as const } }], disconnect: ['t1'] } },
    ];
    expect(owningValues(writes, { tags: ['t1', 't2'] })).toEqual({ parent: 'b', tags: ['t3', 't2'] });
    expect(owningValues([{ ...writes[0], change: { kind: 'set', items: [] } }], { parent: 'x' })).toEqual({ parent: null });
  });

  test('linkedValue links and unlinks without duplicates', () => {
    expect(linkedValue(['a', 'b'], 'a', true, true)).toEqual(['b', 'a']);
    expect(linkedValue(['a', 'b'], 'a', false, true)).toEqual(['b']);
    expect(linkedValue(undefined, 'a', true, true)).toEqual(['a']);
    expect(linkedValue('z', 'a', true, false)).toBe('a');
    expect(linkedValue('a', 'a', false, false)).toBeNull();
  });
});

describe('relation inputs: numeric ids', () => {
  test("Strapi's short and long hand ids are parsed as ids, looked up, and replaced by documentIds; one naming nothing is reported", () => {
    const tags = attribute(article, 'tags');
    const parsed = parseRelationInput(tags, { connect: [3, { id: 4, position: { start: true } }, 'doc-5'], disconnect: [{ id: 6 }] });
    if (!parsed.ok) throw new Error(parsed.message);
    expect(entityIdsOf(parsed.change)).toEqual([3, 4, 6]);
    const documentIds = new Map([[3, 'doc-3'], [4, 'doc-4'], [6, 'doc-6']]);
    expect(resolveIds(parsed.change, documentIds)).toEqual({
      kind: 'patch',
      connect: [{ documentId: 'doc-3' }, { documentId: 'doc-4', position: { start: true } }, { documentId: 'doc-5' }],
      disconnect: ['doc-6'],
    });
    expect(resolveIds(parsed.change, new Map([[3, 'doc-3']]))).toEqual({ missing: 4 });
    // not ids: fractions, zero, negatives
    for (const value of [[1.5], [0], [-2], [{ id: 'x' }]]) expect(parseRelationInput(tags, value).ok).toBe(false);
  });
});

describe('document reads: pure parts', () => {
  test('ties break on the id, unless the sort names it', () => {
    expect(withTiebreak([['title', 1]])).toEqual([['title', 1], ['id', 1]]);
    // in the last key's direction: one index serves the sort both ways
    expect(withTiebreak([['title', 1], ['views', -1]])).toEqual([['title', 1], ['views', -1], ['id', -1]]);
    expect(withTiebreak([['id', -1]])).toEqual([['id', -1]]);
    expect(withTiebreak()).toEqual([['id', 1]]);
  });

  test('allOf leaves out empty parts and joins the rest', () => {
    expect(allOf([undefined, {}, { a: 1 }])).toEqual({ a: 1 });
    expect(allOf([{ a: 1 }, { b: 2 }])).toEqual({ $and: [{ a: 1 }, { b: 2 }] });
  });

  test('a unique-index refusal names the user attributes only', () => {
    expect(uniqueIssuesOf(new UniqueConstraintError('categories', ['name', 'locale', '_status']))).toEqual([
      { path: ['name'], message: 'This attribute must be unique', name: 'ValidationError' },
    ]);
  });

  test('sharedValuesOf keeps the attributes a document shares across locales', () => {
    const localized = { ...article, localized: true, attributes: { ...article.attributes, views: { ...article.attributes.views, localized: false } } };
    expect(sharedValuesOf(localized, { title: 'x', views: 3 })).toEqual({ views: 3 });
  });
});

describe('document parts against a store', () => {
  let dataDir: string;
  let store: Store;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-documents-'));
    store = await openStore({ client: 'embedded' }, dataDir);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const insert = (collection: string, rows: StoredDocument[]) => Promise.all(rows.map((row) => store.collection(collection).insertOne(row)));

  test('checkReferences refuses a missing document and a missing file', async () => {
    await insert(category.collectionName, [{ id: 1, documentId: 'cat1', _status: 'published', name: 'One' }]);
    const relations = createRelationWrites({ models, store, countFiles: async (ids) => ids.filter((id) => id === 7).length });
    const write = { name: 'category', attribute: attribute(article, 'category'), change: { kind: 'set' as const, items: ['cat1'] } };
    await expect(relations.checkReferences({ values: {}, relations: [write], storedReferences: [], mediaIds: [7], issues: [] }, undefined)).resolves.toBeUndefined();
    const missing = await errorOf(() => relations.checkReferences({ values: {}, relations: [{ ...write, change: { kind: 'set', items: ['nope'] } }], storedReferences: [], mediaIds: [], issues: [] }, undefined));
    expect(missing.message).toBe('Document with id "nope", locale "null" not found');
    const noFile = await errorOf(() => relations.checkReferences({ values: {}, relations: [], storedReferences: [], mediaIds: [7, 8], issues: [] }, undefined));
    expect(noFile.message).toBe('File not found among ids 7, 8');
  });

  test('writeInverseSides moves the owning side: a category taking an article takes it from the other', async () => {
    await insert(article.collectionName, [
      { id: 1, documentId: 'art1', _status: 'draft', category: 'old' },
      { id: 2, documentId: 'art2', _status: 'draft', category: 'cat1' },
    ]);
    const relations = createRelationWrites({ models, store, countFiles: async () => 0 });
    await relations.writeInverseSides('cat1', [{ name: 'articles', attribute: attribute(category, 'articles'), change: { kind: 'set', items: ['art1'] } }], undefined);
    const rows = await store.collection(article.collectionName).find({}, { sort: [['id', 1]] });
    expect(rows.map((row) => row.category)).toEqual(['cat1', null]);
  });

  test('reads: scope, tiebreak, single document', async () => {
    await insert(article.collectionName, [
      { id: 2, documentId: 'b', _status: 'published', title: 'same' },
      { id: 1, documentId: 'a', _status: 'published', title: 'same' },
      { id: 3, documentId: 'a', _status: 'draft', title: 'same' },
    ]);
    const reads = createDocumentReads(store);
    const published = await reads.findMany(article, { status: 'published' }, { sort: [['title', 1]] });
    expect(published.map((row) => row.id)).toEqual([1, 2]);
    expect(await reads.count(article, { status: 'draft' })).toBe(1);
    expect((await reads.findOne(article, 'a', { status: 'draft' }))?.id).toBe(3);
    expect(await reads.singleDocumentId(article)).toBe('a');
  });

  test('unique check: another document with the value is refused, the document itself is not', async () => {
    await insert(category.collectionName, [{ id: 1, documentId: 'cat1', _status: 'published', name: 'Taken' }]);
    const checkUnique = createUniqueCheck(store);
    await expect(checkUnique(category, { name: 'Taken' }, 'cat1', undefined, 'published')).resolves.toBeUndefined();
    const refused = await errorOf(() => checkUnique(category, { name: 'Taken' }, 'cat2', undefined, 'published'));
    expect(refused.extensions.error.details).toEqual({ errors: [{ path: ['name'], message: 'This attribute must be unique', name: 'ValidationError', value: 'Taken' }] });
    const reported = await errorOf(() => reportingUniqueErrors(() => Promise.reject(new UniqueConstraintError('categories', ['name']))));
    expect(reported.message).toBe('This attribute must be unique');
  });

  test('publish replaces the published version with a copy of the draft under a new id, and records it', async () => {
    await insert(article.collectionName, [
      { id: 1, documentId: 'a', locale: 'en', _status: 'published', title: 'old', publishedAt: '2020-01-01T00:00:00.000Z' },
      { id: 2, documentId: 'a', locale: 'en', _status: 'draft', title: 'new', publishedAt: null },
      { id: 3, documentId: 'a', locale: 'fr', _status: 'published', title: 'ancien', publishedAt: '2020-01-01T00:00:00.000Z' },
    ]);
    const changes: DocumentChange[] = [];
    const versions = createDocumentVersions(store, async (change) => void changes.push(change));
    const draft = (await store.collection(article.collectionName).findOne({ id: 2 }))!;
    const published = await versions.publish(article, draft, '2026-01-01T00:00:00.000Z');
    const rows = await store.collection(article.collectionName).find({ _status: 'published' }, { sort: [['id', 1]] });
    // the old published version is gone, the other locale's stays
    expect(rows).toHaveLength(2);
    expect(rows).toContainEqual(published);
    expect(rows.find((row) => row.locale === 'fr')?.id).toBe(3);
    expect(published).toMatchObject({ documentId: 'a', title: 'new', publishedAt: '2026-01-01T00:00:00.000Z' });
    expect(published.id).not.toBe(draft.id);
    expect(changes.map((change) => change.action)).toEqual(['publish']);
  });
});
