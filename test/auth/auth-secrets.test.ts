import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../../src/config/defaults';
import type { FolioConfig } from '../../src/config/types';
import { loadAuthSecrets, SECRETS_FILE } from '../../src/auth/auth-secrets';

const configWith = (env: string, jwtSecret?: string, apiTokenSalt?: string): FolioConfig => {
  const config = defaultConfig(env);
  return {
    ...config,
    usersPermissions: { ...config.usersPermissions, ...(jwtSecret ? { jwtSecret } : {}) },
    admin: { ...config.admin, ...(apiTokenSalt ? { apiTokenSalt } : {}) },
  };
};

test('outside production, missing secrets are generated once into the data directory, owner-only', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-secrets-'));
  const first = loadAuthSecrets({ config: configWith('development'), dataDir });
  const again = loadAuthSecrets({ config: configWith('development'), dataDir });
  expect(again.tokenSalt).toBe(first.tokenSalt);
  expect(again.jwtKey.export().equals(first.jwtKey.export())).toBe(true);
  expect(first.jwtKey.type).toBe('secret');
  expect(statSync(join(dataDir, SECRETS_FILE)).mode & 0o777).toBe(0o600);
});

test('configured secrets win and need no file', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-secrets-'));
  const secrets = loadAuthSecrets({ config: configWith('production', 'jwt-from-config', 'salt-from-config'), dataDir });
  expect(secrets.tokenSalt).toBe('salt-from-config');
  expect(secrets.jwtKey.export().toString()).toBe('jwt-from-config');
  expect(() => readFileSync(join(dataDir, SECRETS_FILE))).toThrow();
});

test('production refuses to start without them, naming what is missing', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-secrets-'));
  expect(() => loadAuthSecrets({ config: configWith('production'), dataDir })).toThrow(
    'Folio refuses to start in production without a JWT secret (JWT_SECRET, or users-permissions.config.jwtSecret in config/plugins) and an API token salt (API_TOKEN_SALT, or apiToken.salt in config/admin)',
  );
  expect(() => loadAuthSecrets({ config: configWith('production', 'jwt'), dataDir })).toThrow(/without an API token salt/);
});

test('a damaged secrets file is reported, not silently replaced', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-secrets-'));
  writeFileSync(join(dataDir, SECRETS_FILE), '{"jwtSecret": 1}');
  expect(() => loadAuthSecrets({ config: configWith('development'), dataDir })).toThrow(/is damaged: delete it/);
});
