import { createHash } from 'node:crypto';
import { createInMemoryCache, useResponseCache } from '@envelop/response-cache';
import type { Plugin } from 'graphql-yoga';
import type { ResponseCacheConfig } from '../../config/types';
import type { FolioContext } from '../../context';
import type { Principal } from '../../auth/principal';
import type { Models } from '../../models/types';
import type { Store } from '../../storage/types';
import type { EventFeed } from '../../events/event-feed';
import type { StoredEvent } from '../../events/outbox';
import { componentTypeName, SHARED_NAMES, typeName } from '../../sdl/naming';
import { FILES_COLLECTION } from '../../media/file-record';
import { invalidatingStore } from './invalidating-store';
import { followWrites, type FollowedWrites } from './follow-writes';
import { readWhenMoved } from '../../common/read-when-moved';

/**
 * `graphql.config.responseCache`: @envelop/response-cache in the pipeline, so `/graphql` and REST (whose
 * operations run through the same execute hook) share it. It answers at execution, after the context is
 * made: a revoked token or a blocked user is refused before any cached answer is looked at, and every
 * limit that checks a document has run. Answers are kept per surface (REST and GraphQL page limits
 * differ) and per permission set: equal `grants` get equal answers from every permission check, and a
 * signed-in user's answers are theirs alone (`me`). Only answers without errors are kept.
 *
 * Invalidation is by type: a write to a collection drops every answer holding one of its types (see
 * invalidating-store), and so does a write another instance made, seen in the content events
 * (see follow-writes). `ttl` bounds the rest. A store that tells when another process committed (the
 * embedded store's workers, Store.othersCommitted) has the content events read before an answer is
 * looked up: another worker's write drops this one's answers before its next request, not a poll later.
 */

export interface ResponseCache {
  plugin: Plugin;
  /** `store`, its writes dropping the answers holding what they wrote */
  watch(store: Store): Store;
  /** drops the answers holding what other instances write (`recordedHere`: the events of this one's, see follow-writes), until stopped */
  follow(feed: Pick<EventFeed, 'listen' | 'readNow'>, recordedHere: (event: StoredEvent) => boolean): FollowedWrites;
}

/** The GraphQL types each collection's rows are served as. */
const typesByCollection = (models: Models): Map<string, string[]> => {
  const types = new Map<string, string[]>([[FILES_COLLECTION, [SHARED_NAMES.uploadFile]]]);
  for (const contentType of models.contentTypes.values()) types.set(contentType.collectionName, [typeName(contentType)]);
  for (const component of models.components.values()) types.set(component.collectionName, [componentTypeName(component)]);
  return types;
};

const sessionOf = (surface: string, principal: Principal): string =>
  `${surface}|${principal.grants}${principal.user ? `|user:${String(principal.user.id)}` : ''}`;

export const createResponseCache = ({ ttl, max }: ResponseCacheConfig, models: Models): ResponseCache => {
  const cache = createInMemoryCache({ max });
  let caughtUp: (() => Promise<void> | undefined) | undefined;
  // This instance's writes of content so far, and the count each execution began under. An answer read before
  // a write and finished after the write dropped its type's answers may hold what the write changed: it is not
  // kept. Which types an answer holds is not known where this is decided, so a write of any content type counts
  // (an answer that overlaps one is computed again by the next request).
  let invalidations = 0;
  const begunAfter = new WeakMap<object, number>();
  const plugin = useResponseCache({
    cache,
    ttl,
    session: (context) => {
      const { surface, principal } = context as unknown as FolioContext;
      return sessionOf(surface, principal);
    },
    // entities are told apart by documentId: a write invalidates by type anyway, this only narrows what a mutation's own answer drops
    idFields: ['documentId'],
    // node's hash, synchronous, instead of the plugin's WebCrypto one: a hit waits for no promise to hash its key
    // asked for when an execution begins, before anything is read
    buildResponseCacheKey: ({ documentString, variableValues, operationName, sessionId, context }) => {
      const key = () => {
        if (typeof context === 'object' && context !== null) begunAfter.set(context, invalidations);
        return createHash('sha256')
          .update(`${documentString}|${operationName ?? ''}|${JSON.stringify(variableValues ?? {})}|${sessionId ?? ''}`)
          .digest('base64url');
      };
      const reading = caughtUp?.();
      return reading ? reading.then(key) : key();
    },
    shouldCacheResult: ({ result }) => result.errors === undefined,
    // asked for when the answer is about to be kept: 0 keeps nothing
    onTtl: ({ ttl: kept, context }) => (begunAfter.get(context) === invalidations ? kept : 0),
    includeExtensionMetadata: false,
  }) as Plugin;
  const types = typesByCollection(models);
  const invalidate = (typeNames: readonly string[] = []) => cache.invalidate(typeNames.map((typename) => ({ typename })));
  // another process's write: an answer under way may have read before it, so it is not kept either
  const invalidateFollowed = (typeNames: readonly string[] = []) => {
    invalidations += 1;
    invalidate(typeNames);
  };
  let othersCommitted: (() => number) | undefined;
  return {
    plugin,
    // this instance's writes: another's reach it through the content events a poll later (follow)
    watch: (store) => {
      othersCommitted = store.othersCommitted;
      return invalidatingStore(store, (collection) => {
        const dropped = types.get(collection);
        // the store's own collections (webhook deliveries, the outbox, rate limits) hold no answer's types
        if (!dropped) return;
        invalidations += 1;
        invalidate(dropped);
      });
    },
    follow: (feed, recordedHere) => {
      // the events a read hands out reach follow-writes' loop in the microtasks after it: the next macrotask
      // comes after their answers were dropped
      if (othersCommitted) caughtUp = readWhenMoved(othersCommitted, () => feed.readNow().then(() => new Promise<void>((resolve) => setImmediate(resolve))));
      return followWrites(
        feed,
        recordedHere,
        (uid) => invalidateFollowed(types.get(models.contentTypes.get(uid)?.collectionName ?? '')),
        () => invalidateFollowed([...new Set([...types.values()].flat())]),
      );
    },
  };
};
