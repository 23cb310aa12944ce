import type { Credentials } from './auth/credentials';
import type DataLoader from 'dataloader';
import type { FieldNode } from 'graphql';
import type { FolioConfig } from './config/types';
import type { Models } from './models/types';
import type { DocumentService } from './documents/document-service';
import type { StoredDocument, Store } from './storage/types';
import type { Principal } from './auth/principal';
import type { EventFeed } from './events/event-feed';
import type { Scope } from './documents/scope';

/** What every resolver can reach: the services (shared) and the request's own state. */

export interface Services {
  models: Models;
  config: FolioConfig;
  store: Store;
  documents: DocumentService;
  /** content events as they happen, for subscriptions */
  events: EventFeed;
  /** absolute path of the instance's data directory (the embedded store, uploaded files) */
  dataDir: string;
  /** the JWT service and API tokens, made once at start from the instance's secrets */
  credentials: Credentials;
}

/** How long a list may be: the default page size and the largest one. */
export interface PageLimits {
  defaultLimit: number;
  maxLimit: number;
}

export interface FolioContext {
  services: Services;
  principal: Principal;
  /** which front the request came through: REST requests are compiled by Folio, `/graphql` documents are the client's */
  surface: 'rest' | 'graphql';
  /**
   * The limits of the surface asking: REST's (`api.rest`) for a REST request, GraphQL's otherwise. Every
   * list is clamped with these, so a REST page and its `meta.pagination` agree.
   */
  pageLimits: PageLimits;
  /** per-request batch loaders, keyed by what they load */
  loaders: Map<string, DataLoader<unknown, unknown, unknown>>;
  request?: Request;
  /** the caller as its credentials stand now: long-lived operations (subscriptions) check again per event */
  authenticate?: () => Promise<Principal>;
  /** the scope each row was read in, so its relations inherit status and locale (see resolvers/row-scope) */
  rowScopes: WeakMap<StoredDocument, Scope>;
  /** the content-type uid of each row read through a polymorphic relation, for `GenericMorph` (see morph-loader) */
  morphTypes?: WeakMap<StoredDocument, string>;
  /** relation answers loaded ahead of their fields, by field node and parent row (see prefetch-relations) */
  prefetched?: Map<FieldNode, Map<StoredDocument, PrefetchedValue>>;
  /** a REST operation's `maxCost`, counted as its answer is built (see use-cost-limit) */
  cost?: CostMeter;
}

export interface CostMeter {
  /** counts `values` more (fields answered, rows read); past the limit the operation stops with an error */
  spend(values: number): void;
  /** what may still be spent: a read needs no more rows than one past it to fail */
  remaining(): number;
}

export type PrefetchedValue = StoredDocument[] | StoredDocument | null | { nodes: StoredDocument[] };
