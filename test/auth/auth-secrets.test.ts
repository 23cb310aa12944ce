import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../../src/config/defaults';
import type { FolioConfig } from '../../src/config/types';
import { loadAuthSecrets, LEGACY_SECRETS_FILE, SECRETS_COLLECTION } from '../../src/auth/auth-secrets';
import { openStore } from '../../src/storage/open-store';
import type { Store } from '../../src/storage/types';
import { MONGODB_TEST_URL } from '../mongodb/server-kind';

const configWith = (env: string, jwtSecret?: string, apiTokenSalt?: string): FolioConfig => {
  const config = defaultConfig(env);
  return {
    ...config,
    usersPermissions: { ...config.usersPermissions, ...(jwtSecret ? { jwtSecret } : {}) },
    admin: { ...config.admin, ...(apiTokenSalt ? { apiTokenSalt } : {}) },
  };
};

const engines: Array<[string, (dataDir: string) => Promise<Store>]> = [
  ['embedded', (dataDir) => openStore({ client: 'embedded', options: {} }, dataDir)],
  ['mongodb', () => openStore({ client: 'mongodb', uri: MONGODB_TEST_URL, options: { dbName: `folio_secrets_${randomUUID().slice(0, 8)}` } }, '')],
];

describe.each(engines)('on the %s engine', (_, open) => {
  let dataDir: string;
  let store: Store;
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-secrets-'));
    store = await open(dataDir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('outside production, missing secrets are generated once into the store, and every load shares them', async () => {
    const first = await loadAuthSecrets({ config: configWith('development'), store, dataDir });
    const again = await loadAuthSecrets({ config: configWith('development'), store, dataDir: join(dataDir, 'no-such-folder') });
    expect(again.tokenSalt).toBe(first.tokenSalt);
    expect(again.jwtKey.export().equals(first.jwtKey.export())).toBe(true);
    expect(first.jwtKey.type).toBe('secret');
    expect(await store.collection(SECRETS_COLLECTION).countDocuments({})).toBe(1);
  });

  test('configured secrets win and store nothing', async () => {
    const jwt = 'jwt-from-config-0123456789abcdef0123';
    const salt = 'salt-from-config-0123456789abcdef012';
    const secrets = await loadAuthSecrets({ config: configWith('production', jwt, salt), store, dataDir });
    expect(secrets.tokenSalt).toBe(salt);
    expect(secrets.jwtKey.export().toString()).toBe(jwt);
    expect(await store.collection(SECRETS_COLLECTION).countDocuments({})).toBe(0);
  });

  test('production refuses to start without them, naming what is missing', async () => {
    await expect(loadAuthSecrets({ config: configWith('production'), store, dataDir })).rejects.toThrow(
      'Folio refuses to start in production without a JWT secret (JWT_SECRET, or users-permissions.config.jwtSecret in config/plugins) and an API token salt (API_TOKEN_SALT, or apiToken.salt in config/admin)',
    );
    await expect(loadAuthSecrets({ config: configWith('production', 'jwt'), store, dataDir })).rejects.toThrow(/without an API token salt/);
  });

  test('production refuses secrets shorter than 32 bytes, saying how to make one', async () => {
    await expect(loadAuthSecrets({ config: configWith('production', 'x', 'y'.repeat(32)), store, dataDir })).rejects.toThrow(
      'Folio refuses to start in production with the JWT secret shorter than 32 bytes: make one with `openssl rand -base64 48`',
    );
    await expect(loadAuthSecrets({ config: configWith('production', 'x'.repeat(32), 'short') , store, dataDir })).rejects.toThrow(/the API token salt shorter than 32 bytes/);
    await expect(loadAuthSecrets({ config: configWith('production', 'x'.repeat(32), 'y'.repeat(32)), store, dataDir })).resolves.toBeDefined();
  });

  test('secrets an earlier Folio generated into the data folder are taken into the store, so its tokens keep working', async () => {
    writeFileSync(join(dataDir, LEGACY_SECRETS_FILE), JSON.stringify({ jwtSecret: 'old-jwt', apiTokenSalt: 'old-salt' }));
    const secrets = await loadAuthSecrets({ config: configWith('development'), store, dataDir });
    expect(secrets.tokenSalt).toBe('old-salt');
    expect(await store.collection(SECRETS_COLLECTION).findOne({}, { projection: ['apiTokenSalt'] })).toEqual({ apiTokenSalt: 'old-salt' });
  });

  test('a damaged legacy file is reported, not silently replaced', async () => {
    writeFileSync(join(dataDir, LEGACY_SECRETS_FILE), '{"jwtSecret": 1}');
    await expect(loadAuthSecrets({ config: configWith('development'), store, dataDir })).rejects.toThrow(/is damaged: delete it/);
  });
});
