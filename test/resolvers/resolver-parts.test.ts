import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { scopeOfRow, withScope } from '../../src/resolvers/row-scope';
import { clientAddressOf } from '../../src/resolvers/client-address';
import { inMemoryMatcher } from '../../src/storage/memory-matcher';
import type { FolioContext } from '../../src/context';

/** The resolvers' pure parts: row scopes held by the request, client addresses, in-memory matching. */

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

describe('client address', () => {
  const requestFrom = (peer: string, headers: Record<string, string> = {}) => {
    const socket = new Socket();
    Object.defineProperty(socket, 'remoteAddress', { value: peer });
    const request = new IncomingMessage(socket);
    request.headers = headers;
    return request;
  };
  const proxy = { ipHeader: 'x-forwarded-for', maxIpsCount: 0 };

  test('without a trusted proxy the header is not read', () => {
    expect(clientAddressOf(requestFrom('10.0.0.1', { 'x-forwarded-for': '1.2.3.4' }), false)).toBe('10.0.0.1');
  });

  test("behind one: the header's first address, cut to the last maxIpsCount", () => {
    const request = requestFrom('10.0.0.1', { 'x-forwarded-for': 'forged, 1.2.3.4, 10.0.0.2' });
    expect(clientAddressOf(request, proxy)).toBe('forged');
    expect(clientAddressOf(request, { ...proxy, maxIpsCount: 1 })).toBe('10.0.0.2');
    expect(clientAddressOf(request, { ...proxy, maxIpsCount: 2 })).toBe('1.2.3.4');
    expect(clientAddressOf(requestFrom('10.0.0.1'), proxy)).toBe('10.0.0.1');
  });
});

describe('in-memory matcher', () => {
  test('matches as the store does, and refuses what the store refuses', () => {
    const matches = inMemoryMatcher({ title: { $regex: '^he', $options: 'i' } });
    expect(matches({ title: 'Hello' })).toBe(true);
    expect(matches({ title: 'oh hello' })).toBe(false);
    expect(() => inMemoryMatcher({ $where: 'true' })).toThrow();
  });
});
