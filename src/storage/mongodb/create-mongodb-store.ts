import { AsyncLocalStorage } from 'node:async_hooks';
import { MongoClient, type ClientSession, type MongoClientOptions } from 'mongodb';
import { assertCollectionName } from '../collection-name';
import { SEQUENCES_COLLECTION, SEQUENCES_INDEX, assertSequenceName } from '../sequences';
import type { Collection } from '../types';
import { databaseNameOf, redactConnectionString } from './connection-string';
import { createMongoCollection } from './mongodb-collection';
import { isDuplicateKeyError, toUnavailable } from './mongodb-errors';
import { onceUntilFailure } from '../../common/once-until-failure';
import { createFileBucket } from './file-bucket';
import { isBucketCollection, type FileBucket, type FileBucketStore } from '../file-buckets';

export interface MongoStoreConfig {
  uri: string;
  /** MongoClient options; `dbName` overrides the database named in the URI */
  options?: Record<string, unknown>;
}

/** Folio's defaults; any of them can be overridden in `options`. */
const DEFAULT_OPTIONS: MongoClientOptions = {
  appName: 'folio',
  maxPoolSize: 20,
  retryReads: true,
  retryWrites: true,
  // a request finds the database down within this, and answers 503 (the start waits as long)
  serverSelectionTimeoutMS: 2_000,
  // the same documents as the embedded engine, which drops undefined fields as JSON does
  ignoreUndefined: true,
};

const DEFAULT_DATABASE = 'folio';
const PING_TIMEOUT_MS = 2_000;

/**
 * The driver lets the options object win over the connection string, so a default Folio passed
 * there would silently override what the URI says (`?serverSelectionTimeoutMS=2000`): defaults
 * are passed only for the options the URI leaves unset.
 */
const defaultsLeftOpen = (uri: string): MongoClientOptions => {
  const query = uri.includes('?') ? uri.slice(uri.indexOf('?') + 1) : '';
  const inUri = new Set([...new URLSearchParams(query).keys()].map((key) => key.toLowerCase()));
  return Object.fromEntries(Object.entries(DEFAULT_OPTIONS).filter(([key]) => !inUri.has(key.toLowerCase())));
};

async function connect(uri: string, options: MongoClientOptions): Promise<MongoClient> {
  const client = new MongoClient(uri, options);
  // what the driver settled on, from the URI or the options
  const timeout = client.options.serverSelectionTimeoutMS;
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.close().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot reach MongoDB at ${redactConnectionString(uri)} within ${timeout} ms ` +
        `(raise database.options.serverSelectionTimeoutMS to wait longer): ${reason}`,
      { cause: error },
    );
  }
}

/**
 * The MongoDB engine. Transactions use a session with `withTransaction` when the deployment has them (a replica
 * set or a sharded cluster): then `work` is atomic, and may run more than once when the driver retries a
 * transient conflict, so it must only touch the store. On a standalone server `work` runs plainly: correct, not
 * atomic. Operations inside one transaction must run one after another (no Promise.all), as the driver requires.
 * An operation joins the transaction only while `work` runs: a timer `work` started, firing after the session
 * ended, runs outside it.
 */
export async function openMongoStore(config: MongoStoreConfig): Promise<FileBucketStore> {
  const { dbName, ...clientOptions } = config.options ?? {};
  const options: MongoClientOptions = { ...defaultsLeftOpen(config.uri), ...(clientOptions as MongoClientOptions) };
  const client = await connect(config.uri, options);
  const db = client.db(typeof dbName === 'string' ? dbName : (databaseNameOf(config.uri) ?? DEFAULT_DATABASE));
  const hello = await db.admin().command({ hello: 1 });
  const supportsTransactions = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
  const sessions = new AsyncLocalStorage<{ session: ClientSession; open: boolean }>();
  const currentSession = (): ClientSession | undefined => {
    const joined = sessions.getStore();
    return joined?.open ? joined.session : undefined;
  };
  const collections = new Map<string, Collection>();
  const buckets = new Map<string, FileBucket>();
  // the collection's createIndex reports an unreachable server as StoreUnavailableError itself
  const sequencesIndexed = onceUntilFailure(() => collection(SEQUENCES_COLLECTION).createIndex(SEQUENCES_INDEX));

  function collection(name: string): Collection {
    assertCollectionName(name);
    let found = collections.get(name);
    if (!found) {
      found = createMongoCollection(name, db, currentSession);
      collections.set(name, found);
    }
    return found;
  }

  return {
    engine: 'mongodb',
    collection,
    async listCollections() {
      const listed = await db.listCollections({}, { nameOnly: true }).toArray();
      const names = listed.map((entry) => entry.name).filter((name) => !name.startsWith('system.') && !isBucketCollection(name));
      const holding = await Promise.all(names.map(async (name) => (await db.collection(name).countDocuments({}, { limit: 1 })) > 0));
      return names.filter((_, i) => holding[i]);
    },
    async nextSequence(name) {
      assertSequenceName(name);
      await sequencesIndexed();
      // outside any transaction on purpose: a counter shared by concurrent transactions would make them
      // conflict; a value taken by a transaction that fails is skipped
      const increment = () =>
        db
          .collection(SEQUENCES_COLLECTION)
          .findOneAndUpdate({ name }, { $inc: { value: 1 } }, { upsert: true, returnDocument: 'after', projection: { _id: 0, value: 1 } });
      // two first upserts of a name race: the loser hits the unique index, and the counter exists by then
      const counter = await increment().catch((error: unknown) => {
        if (isDuplicateKeyError(error)) return increment();
        throw toUnavailable(error);
      });
      if (typeof counter?.value !== 'number') throw new Error(`sequence ${name} holds no number`);
      return counter.value;
    },
    async transaction(work) {
      if (currentSession() || !supportsTransactions) return work();
      const session = client.startSession();
      try {
        // one attempt per call: the driver retries a transient conflict with a fresh one
        return await session.withTransaction(async () => {
          const joined = { session, open: true };
          try {
            return await sessions.run(joined, work);
          } finally {
            joined.open = false;
          }
        });
      } catch (error) {
        throw toUnavailable(error);
      } finally {
        await session.endSession();
      }
    },
    fileBucket(name) {
      assertCollectionName(name);
      let found = buckets.get(name);
      if (!found) buckets.set(name, (found = createFileBucket(db, name)));
      return found;
    },
    async ping() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
      });
      const answer = db
        .command({ ping: 1 })
        .then((reply) => reply.ok === 1)
        .catch(() => false);
      try {
        return await Promise.race([answer, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => client.close(),
  };
}
