import { scopeOfRow, withScope } from '../../src/resolvers/row-scope';
import { createMatcher } from '../../src/storage/create-matcher';
import type { FolioContext } from '../../src/context';

/** The resolvers' pure parts: row scopes held by the request, in-memory matching (client addresses: test/config/server-proxy). */

const contextWithScopes = () => ({ rowScopes: new WeakMap() }) as unknown as FolioContext;

describe('row scopes', () => {
  test('a row keeps the scope it was read in, in its own request only', () => {
    const row = { id: 1, documentId: 'a', _status: 'published', locale: 'en' };
    const one = contextWithScopes();
    const other = contextWithScopes();
    withScope(one, row, { status: 'draft', locale: 'fr' });
    expect(scopeOfRow(one, row)).toEqual({ status: 'draft', locale: 'fr' });
    // another request reading the same row object does not inherit the first one's scope
    expect(scopeOfRow(other, row)).toEqual({ status: 'published', locale: 'en' });
    expect(Object.keys(row)).toEqual(['id', 'documentId', '_status', 'locale']);
  });

  test('a row read without a scope takes its own status and locale', () => {
    expect(scopeOfRow(contextWithScopes(), { id: 1, _status: 'draft' })).toEqual({ status: 'draft', locale: undefined });
  });
});

describe('in-memory matcher', () => {
  test('matches as the store does, and refuses what the store refuses', () => {
    const matches = createMatcher({ title: { $regex: '^he', $options: 'i' } });
    expect(matches({ title: 'Hello' })).toBe(true);
    expect(matches({ title: 'oh hello' })).toBe(false);
    expect(() => createMatcher({ $where: 'true' })).toThrow();
  });
});
