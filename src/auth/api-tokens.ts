import { createHmac, randomBytes } from 'node:crypto';
import type { ApiTokenSeed } from '../config/types';
import { PERMISSION_PATTERN } from '../config/file-schemas';
import { UniqueConstraintError, type Store, type StoredDocument } from '../storage/types';
import type { ApiTokenType } from './principal';
import { parseDuration } from './duration';
import { onceUntilFailure } from '../common/once-until-failure';
import { createLruCache } from '../common/lru-cache';

/**
 * API tokens in the store (`api_tokens`). Only a keyed hash of each access key is kept: a copy of
 * the store alone lets nobody in. Tokens come from `config/admin` (`source: 'config'`, re-applied at
 * every start) or from `folio token create` (`source: 'cli'`).
 */

export const API_TOKENS_COLLECTION = 'api_tokens';
const API_TOKEN_TYPES: readonly ApiTokenType[] = ['full-access', 'read-only', 'custom'];

export interface ApiTokenInfo {
  name: string;
  type: ApiTokenType;
  permissions: string[];
  description: string | null;
  source: 'config' | 'cli';
  createdAt: string;
  expiresAt: string | null;
}

export interface NewApiToken {
  name: string;
  type: string;
  permissions?: string[];
  /** `30d`, `12h`…; no expiry when absent */
  expiresIn?: string;
  description?: string;
}

export interface ApiTokens {
  /** the token an access key opens, unless unknown, revoked or expired */
  find(accessKey: string, now?: Date): Promise<ApiTokenInfo | undefined>;
  /** the access key is returned once, here, and never stored */
  create(input: NewApiToken): Promise<{ accessKey: string; token: ApiTokenInfo }>;
  list(): Promise<ApiTokenInfo[]>;
  revoke(name: string): Promise<ApiTokenInfo | undefined>;
  /** makes the `config`-sourced tokens exactly the declared ones */
  seed(seeds: ApiTokenSeed[]): Promise<void>;
  /** tokens hashed with another salt: they cannot open anything any more */
  countUnusable(): Promise<number>;
}

const NAME = /^[\w.@-]{1,100}$/;

const infoOf = (row: StoredDocument): ApiTokenInfo => ({
  name: row.name as string,
  type: row.type as ApiTokenType,
  // a copy: the row may be a kept lookup, shared by every request with its key
  permissions: [...(row.permissions as string[])],
  description: row.description as string | null,
  source: row.source as ApiTokenInfo['source'],
  createdAt: row.createdAt as string,
  expiresAt: row.expiresAt as string | null,
});

const checkNewToken = ({ name, type, permissions = [], expiresIn }: NewApiToken): string[] => [
  ...(NAME.test(name) ? [] : [`name "${name}" must be 1 to 100 letters, digits, ".", "_", "-" or "@"`]),
  ...((API_TOKEN_TYPES as readonly string[]).includes(type) ? [] : [`type must be one of ${API_TOKEN_TYPES.join(', ')}, got "${type}"`]),
  ...(type === 'custom' && permissions.length === 0 ? ['a custom token needs at least one permission'] : []),
  ...(type !== 'custom' && permissions.length > 0 ? [`permissions only apply to custom tokens (this one is ${type})`] : []),
  ...permissions.filter((permission) => !PERMISSION_PATTERN.test(permission)).map((permission) => `"${permission}" is not a permission like "api::article.article.find"`),
  ...(expiresIn === undefined || parseDuration(expiresIn) !== undefined ? [] : [`expiry "${expiresIn}" is not a duration such as "30d", "12h" or "90m"`]),
];

/**
 * Lookups kept per access key (by its hash, found or not), so a request's token is not a store read: 5-16 % of a
 * get-one's throughput at 50 connections. Bounded, so random keys cannot grow it.
 */
const KEPT_LOOKUPS = 1000;
/**
 * How long a lookup is kept where other instances may write tokens unseen (a shared database): a token revoked
 * (or created) there is refused (or accepted) here within it, as a role changed there is seen within role-grants' poll.
 */
const SHARED_LOOKUP_MS = 1000;

interface Lookup {
  row: StoredDocument | null;
  /** the writes to the tokens made here, and the other processes' commits, counted when the read began: either moving ends it */
  generation: number;
  others: number;
  /** epoch ms */
  at: number;
}

/**
 * `shared`: whether other instances may write the tokens without this one seeing it (a database that is not the
 * embedded store's file; the embedded store's workers tell each other's commits: Store.othersCommitted).
 */
export const createApiTokens = (store: Store, salt: string, { shared = true }: { shared?: boolean } = {}): ApiTokens => {
  const collection = store.collection(API_TOKENS_COLLECTION);
  const lookups = createLruCache<Lookup>(KEPT_LOOKUPS);
  let generation = 0;
  const othersCommitted = (): number => store.othersCommitted?.() ?? 0;
  /**
   * What this instance writes to the tokens ends every lookup kept, whether it succeeds or not: counted once it is
   * done, so a lookup begun before then (which may have read the rows before it) is kept under the old count
   */
  const writing = async <T>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } finally {
      generation += 1;
    }
  };
  const lookUp = async (accessKeyHash: string): Promise<StoredDocument | null> => {
    const now = Date.now();
    const kept = lookups.get(accessKeyHash);
    const others = othersCommitted();
    if (kept && kept.generation === generation && kept.others === others && (!shared || now - kept.at < SHARED_LOOKUP_MS)) return kept.row;
    const begun = { generation, others, at: now };
    const row = await collection.findOne({ accessKeyHash });
    lookups.set(accessKeyHash, { row, ...begun });
    return row;
  };
  const hash = (accessKey: string): string => createHmac('sha512', salt).update(accessKey).digest('hex');
  // Names the salt without revealing it, so tokens hashed with a different one can be told apart.
  const saltId = createHmac('sha256', salt).update('folio api token salt').digest('hex').slice(0, 16);
  const ready = onceUntilFailure(() =>
    Promise.all([
      collection.createIndex({ keys: [['name', 1]], unique: true }),
      collection.createIndex({ keys: [['accessKeyHash', 1]], unique: true }),
    ]),
  );

  return {
    async find(accessKey, now = new Date()) {
      await ready();
      const row = await lookUp(hash(accessKey));
      if (!row || (row.expiresAt !== null && Date.parse(row.expiresAt as string) <= now.getTime())) return undefined;
      return infoOf(row);
    },
    async create(input) {
      await ready();
      const problems = checkNewToken(input);
      if (problems.length > 0) throw new Error(problems.join('; '));
      const accessKey = randomBytes(32).toString('hex');
      const now = new Date();
      const lifetime = input.expiresIn === undefined ? undefined : parseDuration(input.expiresIn);
      const row: StoredDocument = {
        name: input.name,
        type: input.type,
        permissions: input.permissions ?? [],
        description: input.description ?? null,
        source: 'cli',
        createdAt: now.toISOString(),
        expiresAt: lifetime === undefined ? null : new Date(now.getTime() + lifetime).toISOString(),
        accessKeyHash: hash(accessKey),
        saltId,
      };
      try {
        await writing(() => collection.insertOne(row));
      } catch (error) {
        if (error instanceof UniqueConstraintError) throw new Error(`an API token named "${input.name}" already exists`);
        throw error;
      }
      return { accessKey, token: infoOf(row) };
    },
    async list() {
      await ready();
      return (await collection.find({}, { sort: [['createdAt', 1]] })).map(infoOf);
    },
    async revoke(name) {
      await ready();
      const row = await collection.findOne({ name });
      if (!row) return undefined;
      await writing(() => collection.deleteOne({ name }));
      return infoOf(row);
    },
    async seed(seeds) {
      await ready();
      await writing(() =>
        store.transaction(async () => {
          await collection.deleteMany({ source: 'config', name: { $nin: seeds.map((seed) => seed.name) } });
          for (const seed of seeds) {
            const values: StoredDocument = {
              type: seed.type,
              permissions: seed.permissions ?? [],
              description: seed.description ?? null,
              source: 'config',
              expiresAt: null,
              accessKeyHash: hash(seed.accessKey),
              saltId,
            };
            // A declared token replaces a CLI-made one of the same name: deployments are declarative.
            const updated = await collection.updateOne({ name: seed.name }, { $set: values });
            if (updated === 0) await collection.insertOne({ name: seed.name, ...values, createdAt: new Date().toISOString() });
          }
        }),
      );
    },
    async countUnusable() {
      await ready();
      return collection.countDocuments({ saltId: { $ne: saltId } });
    },
  };
};
