import { runInNewContext } from 'node:vm';
import { hasObjectPrototype } from '../../src/storage/plain-object';
import { cloneDocument } from '../../src/storage/clone-document';

test('an object literal of any realm has an Object prototype; null-prototype objects and class instances do not', () => {
  expect(hasObjectPrototype({})).toBe(true);
  expect(hasObjectPrototype(runInNewContext('({ a: 1 })') as object)).toBe(true);
  expect(hasObjectPrototype(Object.create(null) as object)).toBe(false);
  expect(hasObjectPrototype(new Date())).toBe(false);
  expect(hasObjectPrototype(runInNewContext('new Map()') as object)).toBe(false);
  expect(hasObjectPrototype(new (class Point {})())).toBe(false);
});

test('a document of another realm is stored as it is; a Date of another realm is still refused', () => {
  expect(cloneDocument(runInNewContext('({ title: "a", seo: { tags: [{ name: "b" }] } })') as never)).toEqual({ title: 'a', seo: { tags: [{ name: 'b' }] } });
  expect(() => cloneDocument(runInNewContext('({ at: new Date(0) })') as never)).toThrow(/cannot store Date at at/);
});
