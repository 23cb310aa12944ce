import type { IResolvers } from '@graphql-tools/utils';
import type { Attribute, ContentType, Models } from '../models/types';
import type { StoredDocument } from '../storage/types';
import type { StoredEvent } from '../events/outbox';
import * as names from '../sdl/naming';
import { forbiddenError, tooManySubscriptionsError } from '../errors/graphql-errors';
import type { Scope } from '../documents/scope';
import type { FolioContext } from '../context';
import { filterTranslatorFor } from './filter-translator';
import { createMatcher } from '../storage/create-matcher';
import { withScope } from './row-scope';
import { clientOfContext } from './client-address';
import { TooManySubscriptionsError } from '../events/event-feed';
import { shownInEntry } from '../events/event-payload';

/**
 * `articleCreated(filters)`, … : each content event of the type, as the document it is now, through
 * the type's ordinary resolvers. Every event is checked again before it is sent: the subscriber may
 * still read the type (a revoked token or a blocked user stops the stream), and the document
 * matches the filters (read back from the store, so relation filters work; a deleted document is matched
 * as it was, without its relations; so is one deleted before its update was read, unless the filters name
 * what its entry leaves out).
 */

type Args = { filters?: unknown };

const scopeOfEntry = (contentType: ContentType, entry: StoredDocument): Scope => ({
  status: contentType.draftAndPublish && entry.publishedAt === null ? 'draft' : 'published',
  locale: typeof entry.locale === 'string' ? entry.locale : undefined,
});

/**
 * Whether GraphQL `filters` name what an event's entry leaves out (shownInEntry: relations, media, private
 * attributes, in components too): matched on the entry alone, a negated or null-seeking condition on them holds.
 */
const readsBeyondEntry = (attributes: Record<string, Attribute>, filters: unknown, models: Models): boolean => {
  if (Array.isArray(filters)) return filters.some((branch) => readsBeyondEntry(attributes, branch, models));
  if (typeof filters !== 'object' || filters === null) return false;
  return Object.entries(filters).some(([key, value]) => {
    if (key === 'and' || key === 'or' || key === 'not') return readsBeyondEntry(attributes, value, models);
    // the system fields (id, documentId, timestamps) are in every entry
    if (!Object.hasOwn(attributes, key)) return false;
    const attribute = attributes[key];
    if (!shownInEntry(attribute)) return true;
    return attribute.type === 'component' && readsBeyondEntry(models.components.get(attribute.component)?.attributes ?? {}, value, models);
  });
};

const documentOf = async (contentType: ContentType, event: StoredEvent, args: Args, context: FolioContext): Promise<StoredDocument | undefined> => {
  const scope = scopeOfEntry(contentType, event.entry);
  const filter = await filterTranslatorFor(context, scope).translate(contentType, args.filters);
  const asItWas = () => (!filter || createMatcher(filter)(event.entry) ? withScope(context, event.entry, scope) : undefined);
  if (event.event === 'entry.delete') return asItWas();
  const read = (conditions: Record<string, unknown>) => context.services.documents.findMany(contentType, scope, { filter: conditions, limit: 1 });
  const [row] = await read(filter ? { $and: [{ id: event.entry.id }, filter] } : { id: event.entry.id });
  if (row) return withScope(context, row, scope);
  // deleted before the event was read (a write right after it): matched as it was, as a deletion is, not lost,
  // unless the filters read what the entry leaves out
  if (filter && (await read({ id: event.entry.id })).length > 0) return undefined;
  return readsBeyondEntry(contentType.attributes, args.filters, context.services.models) ? undefined : asItWas();
};

/** Whose subscriptions count together: a user, an API token, or an anonymous client by its address. */
const ownerOf = (context: FolioContext): string => {
  const { principal } = context;
  if (principal.user) return `user:${String(principal.user.id)}`;
  if (principal.tokenName) return `token:${principal.tokenName}`;
  return `client:${clientOfContext(context)}`;
};

const listenFor = async (contentType: ContentType, event: string, context: FolioContext) => {
  try {
    return await context.services.events.listen((candidate) => candidate.uid === contentType.uid && candidate.event === event, ownerOf(context));
  } catch (error) {
    if (error instanceof TooManySubscriptionsError) throw tooManySubscriptionsError(error.message);
    throw error;
  }
};

/**
 * The documents of the events, as an iterator rather than an async generator: a generator waiting
 * for its next event cannot be returned until one comes, so a client that unsubscribed would keep
 * its listener (and its place under the per-client limit) until the type's next write.
 */
const documentsOf = (contentType: ContentType, events: AsyncIterableIterator<StoredEvent>, args: Args, context: FolioContext): AsyncIterableIterator<StoredDocument> => {
  const permission = names.permissionFor(contentType, 'find');
  const finish = async () => {
    await events.return?.();
    return { done: true as const, value: undefined };
  };
  const iterator: AsyncIterableIterator<StoredDocument> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      for (;;) {
        const candidate = await events.next();
        if (candidate.done) return finish();
        const event = candidate.value;
        // a thousand subscribers of one event check each credential, and read each filtered document, once
        const { shared } = context.services.events;
        const authenticate = context.authenticate;
        const principal = authenticate ? await shared(event, `credential:${context.request?.headers.get('authorization') ?? ''}`, authenticate) : context.principal;
        if (!principal.can(permission)) {
          await finish();
          throw forbiddenError('Forbidden access');
        }
        // relation filters depend on what the subscriber may read: its grants are part of the key
        const document = await shared(event, `document:${principal.grants}:${JSON.stringify(args.filters ?? null)}`, () => documentOf(contentType, event, args, context));
        if (document) return { done: false, value: document };
      }
    },
    return: finish,
    async throw(error: unknown) {
      await finish();
      throw error;
    },
  };
  return iterator;
};

export const subscriptionResolvers = (contentType: ContentType): IResolvers => ({
  Subscription: Object.fromEntries(
    names.subscriptionSuffixes(contentType).map((suffix) => [
      names.subscriptionName(contentType, suffix),
      {
        // listening starts here, not at the first event: a refusal (too many subscriptions) reaches the client as the operation's error
        subscribe: async (_: unknown, args: Args, context: FolioContext) => documentsOf(contentType, await listenFor(contentType, names.SUBSCRIPTION_EVENTS[suffix], context), args, context),
        resolve: (document: StoredDocument) => document,
      },
    ]),
  ),
});
