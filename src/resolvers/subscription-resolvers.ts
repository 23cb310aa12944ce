import type { IResolvers } from '@graphql-tools/utils';
import type { ContentType } from '../models/types';
import type { StoredDocument } from '../storage/types';
import type { StoredEvent } from '../events/outbox';
import * as names from '../sdl/naming';
import { forbiddenError } from '../errors/graphql-errors';
import type { Scope } from '../documents/scope';
import type { FolioContext } from './context';
import { filterTranslatorFor } from './filter-translator';
import { inMemoryMatcher } from './memory-filter';
import { withScope } from './row-scope';

/**
 * `articleCreated(filters)`, … : each content event of the type, as the document it is now, through
 * the type's ordinary resolvers. Every event is checked again before it is sent: the subscriber may
 * still read the type (a revoked token or a blocked user stops the stream), and the document
 * matches the filters (read back from the store, so relation filters work; a deleted document is
 * matched as it was, without its relations).
 */

type Args = { filters?: unknown };

const scopeOfEntry = (contentType: ContentType, entry: StoredDocument): Scope => ({
  status: contentType.draftAndPublish && entry.publishedAt === null ? 'draft' : 'published',
  locale: typeof entry.locale === 'string' ? entry.locale : undefined,
});

const documentOf = async (contentType: ContentType, event: StoredEvent, args: Args, context: FolioContext): Promise<StoredDocument | undefined> => {
  const scope = scopeOfEntry(contentType, event.entry);
  const filter = await filterTranslatorFor(context, scope).translate(contentType, args.filters);
  if (event.event === 'entry.delete') return !filter || inMemoryMatcher(filter)(event.entry) ? withScope(event.entry, scope) : undefined;
  const [row] = await context.services.documents.findMany(contentType, scope, { filter: filter ? { $and: [{ id: event.entry.id }, filter] } : { id: event.entry.id }, limit: 1 });
  return row && withScope(row, scope);
};

async function* documentsOf(contentType: ContentType, event: string, args: Args, context: FolioContext): AsyncGenerator<StoredDocument> {
  const permission = names.permissionFor(contentType, 'find');
  const events = await context.services.events.listen((candidate) => candidate.uid === contentType.uid && candidate.event === event);
  try {
    for await (const candidate of events) {
      const principal = context.authenticate ? await context.authenticate() : context.principal;
      if (!principal.can(permission)) throw forbiddenError('Forbidden access');
      const document = await documentOf(contentType, candidate, args, context);
      if (document) yield document;
    }
  } finally {
    await events.return?.();
  }
}

export const subscriptionResolvers = (contentType: ContentType): IResolvers => ({
  Subscription: Object.fromEntries(
    names.subscriptionSuffixes(contentType).map((suffix) => [
      names.subscriptionName(contentType, suffix),
      {
        subscribe: (_: unknown, args: Args, context: FolioContext) => documentsOf(contentType, names.SUBSCRIPTION_EVENTS[suffix], args, context),
        resolve: (document: StoredDocument) => document,
      },
    ]),
  ),
});
