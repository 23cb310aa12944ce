import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FolioConfig } from '../config/types';
import { UniqueConstraintError, type Store } from '../storage/types';
import { isRecord } from '../common/is-record';

/**
 * The two secrets authentication rests on: the JWT signing key and the salt of API token hashes.
 * Configured ones win (`jwtSecret`/`JWT_SECRET`, `apiToken.salt`/`API_TOKEN_SALT`); outside production
 * a missing one is generated once and kept in the store, so tokens survive restarts, the CLI hashes
 * as the server does, and every instance on one database shares them (no local folder needed).
 * Production refuses to guess.
 */

export interface AuthSecrets {
  /** a KeyObject: jsonwebtoken verifies ~40× faster with one than with a string */
  jwtKey: KeyObject;
  tokenSalt: string;
}

/** Where Folio kept generated secrets before they moved into the store: read once, to keep its tokens working. */
export const LEGACY_SECRETS_FILE = 'auth-secrets.json';
export const SECRETS_COLLECTION = 'folio_secrets';
const NAME = 'auth';

interface GeneratedSecrets {
  jwtSecret: string;
  apiTokenSalt: string;
}

const isSecrets = (value: unknown): value is GeneratedSecrets => isRecord(value) && typeof value.jwtSecret === 'string' && typeof value.apiTokenSalt === 'string';

const generate = (): string => randomBytes(48).toString('base64');

/** A secret anyone could guess or brute-force is no secret: production asks for at least this much. */
const MIN_SECRET_BYTES = 32;

const legacySecrets = (dataDir: string): GeneratedSecrets | undefined => {
  const path = join(dataDir, LEGACY_SECRETS_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const damaged = new Error(`${path} is damaged: delete it to generate new secrets (every JWT and CLI-made API token stops working)`);
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    throw damaged;
  }
  if (!isSecrets(stored)) throw damaged;
  return stored;
};

/**
 * One record per deployment. Instances starting together may both insert: the unique index keeps
 * one (on a real server), and each reads back the one that stayed.
 */
const readOrCreateStoredSecrets = async (store: Store, dataDir: string): Promise<GeneratedSecrets> => {
  const secrets = store.collection(SECRETS_COLLECTION);
  await secrets.createIndex({ keys: [['name', 1]], unique: true });
  const stored = async () => {
    const found = await secrets.findOne({ name: NAME });
    if (found && !isSecrets(found)) throw new Error(`the ${SECRETS_COLLECTION} collection is damaged: delete its "${NAME}" record to generate new secrets`);
    return found ?? undefined;
  };
  const existing = await stored();
  if (existing) return existing;
  const fresh = legacySecrets(dataDir) ?? { jwtSecret: generate(), apiTokenSalt: generate() };
  await secrets.insertOne({ name: NAME, ...fresh }).catch((error: unknown) => {
    if (!(error instanceof UniqueConstraintError)) throw error;
  });
  return (await stored()) ?? fresh;
};

export const loadAuthSecrets = async ({ config, store, dataDir }: { config: FolioConfig; store: Store; dataDir: string }): Promise<AuthSecrets> => {
  const configured = { jwtSecret: config.usersPermissions.jwtSecret, apiTokenSalt: config.admin.apiTokenSalt };
  if (config.env === 'production') {
    const missing = [
      ...(configured.jwtSecret === undefined ? ['a JWT secret (JWT_SECRET, or users-permissions.config.jwtSecret in config/plugins)'] : []),
      ...(configured.apiTokenSalt === undefined ? ['an API token salt (API_TOKEN_SALT, or apiToken.salt in config/admin)'] : []),
    ];
    if (missing.length > 0) throw new Error(`Folio refuses to start in production without ${missing.join(' and ')}`);
    const short = [
      ...(Buffer.byteLength(configured.jwtSecret!) < MIN_SECRET_BYTES ? ['the JWT secret'] : []),
      ...(Buffer.byteLength(configured.apiTokenSalt!) < MIN_SECRET_BYTES ? ['the API token salt'] : []),
    ];
    if (short.length > 0) {
      throw new Error(`Folio refuses to start in production with ${short.join(' and ')} shorter than ${MIN_SECRET_BYTES} bytes: make one with \`openssl rand -base64 48\``);
    }
  }
  const generated = configured.jwtSecret === undefined || configured.apiTokenSalt === undefined ? await readOrCreateStoredSecrets(store, dataDir) : undefined;
  return {
    jwtKey: createSecretKey(Buffer.from(configured.jwtSecret ?? generated!.jwtSecret, 'utf8')),
    tokenSalt: configured.apiTokenSalt ?? generated!.apiTokenSalt,
  };
};
