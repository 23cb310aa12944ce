import { openEmbeddedStore, type EmbeddedStoreOptions } from './embedded/create-embedded-store';
import type { Store } from './types';

export interface StoreConfig {
  client: 'embedded' | 'mongodb';
  /** MongoDB connection string; unused by the embedded engine */
  uri?: string;
  /** engine options (for MongoDB, driver options such as maxPoolSize) */
  options?: Record<string, unknown>;
}

/** Opens the configured engine; the embedded one keeps its files in `dataDir` (`embedded`: its options). */
export async function openStore(config: StoreConfig, dataDir: string, embedded?: EmbeddedStoreOptions): Promise<Store> {
  switch (config.client) {
    case 'embedded':
      return openEmbeddedStore(dataDir, embedded);
    case 'mongodb':
      if (!config.uri) throw new Error('the mongodb database client needs a connection string: set database.uri or DATABASE_URL');
      // loaded here: the driver adds a tenth of a second to every start on the embedded store
      return (await import('./mongodb/create-mongodb-store')).openMongoStore({ uri: config.uri, options: config.options });
    default:
      throw new Error(`unknown database client "${String((config as { client: unknown }).client)}": use "embedded" or "mongodb"`);
  }
}
