import { createFieldLookups } from '../../src/storage/embedded/field-lookups';
import type { StoredDocument } from '../../src/storage/types';

const documents = new Map<number, StoredDocument>();
const lookups = createFieldLookups(documents);
const put = (key: number, document: StoredDocument | undefined) => {
  const previous = documents.get(key);
  if (document) documents.set(key, document);
  else documents.delete(key);
  lookups.changed(key, previous, document);
};

beforeAll(() => {
  for (let key = 1; key <= 20; key += 1) put(key, { id: key, documentId: `d${key}`, tags: key % 2 === 0 ? ['even', `t${key}`] : [`t${key}`], kind: 'same' });
});

test('narrows equality, $eq and $in on a top-level field, also inside $and', () => {
  expect(lookups.candidates({ id: 3 })).toEqual([3]);
  expect(lookups.candidates({ documentId: { $in: ['d5', 'd2', 'missing'] } })).toEqual([2, 5]);
  expect(lookups.candidates({ $and: [{ kind: 'same' }, { documentId: { $eq: 'd7' } }] })).toEqual([7]);
});

test('array fields are looked up by element', () => {
  expect(lookups.candidates({ tags: 't4' })).toEqual([4]);
});

test('no lookup for clauses it cannot serve or that narrow too little', () => {
  expect(lookups.candidates({ 'nested.path': 1 })).toBeUndefined();
  expect(lookups.candidates({ id: { $gt: 3 } })).toBeUndefined();
  expect(lookups.candidates({ kind: 'same' })).toBeUndefined();
  expect(lookups.candidates({ tags: 'even' })).toBeUndefined();
});

test('writes keep the lookups current', () => {
  put(3, { id: 3, documentId: 'renamed', tags: [], kind: 'same' });
  expect(lookups.candidates({ documentId: 'd3' })).toEqual([]);
  expect(lookups.candidates({ documentId: 'renamed' })).toEqual([3]);
  put(3, undefined);
  expect(lookups.candidates({ id: 3 })).toEqual([]);
});
