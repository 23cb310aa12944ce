import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/storage/open-store';
import type { Store } from '../../src/storage/types';
import { API_TOKENS_COLLECTION, createApiTokens } from '../../src/auth/api-tokens';

let dataDir: string;
let store: Store;
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'folio-api-tokens-'));
  store = await openStore({ client: 'embedded' }, dataDir);
});
afterEach(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a created key opens its token until it expires; only its keyed hash is stored', async () => {
  const tokens = createApiTokens(store, 'salt');
  const { accessKey, token } = await tokens.create({ name: 'ci', type: 'read-only', expiresIn: '1h' });
  expect(accessKey).toMatch(/^[0-9a-f]{64}$/);
  expect(await tokens.find(accessKey)).toEqual(token);
  expect(await tokens.find(accessKey, new Date(Date.parse(token.expiresAt!) + 1))).toBeUndefined();
  expect(await tokens.find(`${accessKey}x`)).toBeUndefined();
  expect(JSON.stringify(await store.collection(API_TOKENS_COLLECTION).find({}))).not.toContain(accessKey);
  expect(await createApiTokens(store, 'other salt').find(accessKey)).toBeUndefined();
});

test('seeding makes the config tokens exactly the declared ones and leaves CLI tokens alone', async () => {
  const tokens = createApiTokens(store, 'salt');
  const cli = await tokens.create({ name: 'cli', type: 'full-access' });
  await tokens.seed([
    { name: 'a', type: 'read-only', accessKey: 'key-a' },
    { name: 'b', type: 'custom', accessKey: 'key-b', permissions: ['api::tag.tag.find'] },
  ]);
  await tokens.seed([{ name: 'b', type: 'full-access', accessKey: 'key-b2' }]);
  expect((await tokens.list()).map((token) => [token.name, token.type, token.source])).toEqual([
    ['cli', 'full-access', 'cli'],
    ['b', 'full-access', 'config'],
  ]);
  expect(await tokens.find('key-a')).toBeUndefined();
  expect(await tokens.find('key-b')).toBeUndefined();
  expect((await tokens.find('key-b2'))?.name).toBe('b');
  expect((await tokens.find(cli.accessKey))?.name).toBe('cli');
});

test('a declared token takes over a CLI token of the same name', async () => {
  const tokens = createApiTokens(store, 'salt');
  const cli = await tokens.create({ name: 'ci', type: 'full-access' });
  await tokens.seed([{ name: 'ci', type: 'read-only', accessKey: 'declared' }]);
  expect(await tokens.find(cli.accessKey)).toBeUndefined();
  expect(await tokens.find('declared')).toMatchObject({ name: 'ci', type: 'read-only', source: 'config' });
});

test('tokens hashed with another salt are counted as unusable', async () => {
  await createApiTokens(store, 'old salt').create({ name: 'old', type: 'full-access' });
  const tokens = createApiTokens(store, 'new salt');
  await tokens.create({ name: 'new', type: 'full-access' });
  expect(await tokens.countUnusable()).toBe(1);
});

test('revoke removes a token by name', async () => {
  const tokens = createApiTokens(store, 'salt');
  const { accessKey } = await tokens.create({ name: 'gone', type: 'custom', permissions: ['api::tag.tag.find'] });
  expect((await tokens.revoke('gone'))?.name).toBe('gone');
  expect(await tokens.revoke('gone')).toBeUndefined();
  expect(await tokens.find(accessKey)).toBeUndefined();
});

describe('lookups kept per access key', () => {
  /** the store's reads of the tokens collection, counted */
  const countingReads = (counted: Store) => {
    let reads = 0;
    const collection = counted.collection(API_TOKENS_COLLECTION);
    const watched: Store = {
      ...counted,
      collection: (name) =>
        name === API_TOKENS_COLLECTION
          ? {
              ...collection,
              findOne: (...args) => {
                reads += 1;
                return collection.findOne(...args);
              },
            }
          : counted.collection(name),
    };
    return { watched, reads: () => reads };
  };

  test('a key found is not read again; a revoke or create here is seen at once', async () => {
    const { watched, reads } = countingReads(store);
    const tokens = createApiTokens(watched, 'salt', { shared: false });
    const { accessKey } = await tokens.create({ name: 'ci', type: 'read-only' });
    expect((await tokens.find(accessKey))?.name).toBe('ci');
    const afterFirst = reads();
    expect((await tokens.find(accessKey))?.name).toBe('ci');
    expect(await tokens.find('unknown-key')).toBeUndefined();
    expect(await tokens.find('unknown-key')).toBeUndefined();
    expect(reads()).toBe(afterFirst + 1);
    await tokens.revoke('ci');
    expect(await tokens.find(accessKey)).toBeUndefined();
    await tokens.seed([{ name: 'declared', type: 'read-only', accessKey: 'unknown-key' }]);
    expect((await tokens.find('unknown-key'))?.name).toBe('declared');
  });

  test('a kept token still expires', async () => {
    const tokens = createApiTokens(store, 'salt', { shared: false });
    const { accessKey, token } = await tokens.create({ name: 'short', type: 'read-only', expiresIn: '1h' });
    expect(await tokens.find(accessKey)).toEqual(token);
    expect(await tokens.find(accessKey, new Date(Date.parse(token.expiresAt!) + 1))).toBeUndefined();
  });

  test('on a shared database a revoke by another instance is seen within a second', async () => {
    const here = createApiTokens(store, 'salt', { shared: true });
    const elsewhere = createApiTokens(store, 'salt', { shared: true });
    const { accessKey } = await elsewhere.create({ name: 'ci', type: 'read-only' });
    expect((await here.find(accessKey))?.name).toBe('ci');
    await elsewhere.revoke('ci');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await here.find(accessKey)).toBeUndefined();
  });
});
