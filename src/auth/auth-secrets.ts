import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FolioConfig } from '../config/types';

/**
 * The two secrets authentication rests on: the JWT signing key and the salt of API token hashes.
 * Configured ones win (`jwtSecret`/`JWT_SECRET`, `apiToken.salt`/`API_TOKEN_SALT`); outside production
 * a missing one is generated once and kept in the data directory, so tokens survive restarts and the
 * CLI hashes as the server does. Production refuses to guess: replicas must share them.
 */

export interface AuthSecrets {
  /** a KeyObject: jsonwebtoken verifies ~40× faster with one than with a string */
  jwtKey: KeyObject;
  tokenSalt: string;
}

export const SECRETS_FILE = 'auth-secrets.json';

interface LocalSecrets {
  jwtSecret: string;
  apiTokenSalt: string;
}

const generate = (): string => randomBytes(48).toString('base64');

/** Written with `wx`: two processes starting together cannot both generate different secrets. */
const readOrCreateLocalSecrets = (dataDir: string): LocalSecrets => {
  const path = join(dataDir, SECRETS_FILE);
  try {
    writeFileSync(path, JSON.stringify({ jwtSecret: generate(), apiTokenSalt: generate() }), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const damaged = () => new Error(`${path} is damaged: delete it to generate new secrets (every JWT and CLI-made API token stops working)`);
  let stored: Partial<LocalSecrets>;
  try {
    stored = JSON.parse(readFileSync(path, 'utf8')) as Partial<LocalSecrets>;
  } catch {
    throw damaged();
  }
  if (typeof stored.jwtSecret !== 'string' || typeof stored.apiTokenSalt !== 'string') throw damaged();
  return { jwtSecret: stored.jwtSecret, apiTokenSalt: stored.apiTokenSalt };
};

export const loadAuthSecrets = ({ config, dataDir }: { config: FolioConfig; dataDir: string }): AuthSecrets => {
  const configured = { jwtSecret: config.usersPermissions.jwtSecret, apiTokenSalt: config.admin.apiTokenSalt };
  if (config.env === 'production') {
    const missing = [
      ...(configured.jwtSecret === undefined ? ['a JWT secret (JWT_SECRET, or users-permissions.config.jwtSecret in config/plugins)'] : []),
      ...(configured.apiTokenSalt === undefined ? ['an API token salt (API_TOKEN_SALT, or apiToken.salt in config/admin)'] : []),
    ];
    if (missing.length > 0) throw new Error(`Folio refuses to start in production without ${missing.join(' and ')}`);
  }
  let local: LocalSecrets | undefined;
  const generated = (): LocalSecrets => (local ??= readOrCreateLocalSecrets(dataDir));
  return {
    jwtKey: createSecretKey(Buffer.from(configured.jwtSecret ?? generated().jwtSecret, 'utf8')),
    tokenSalt: configured.apiTokenSalt ?? generated().apiTokenSalt,
  };
};
