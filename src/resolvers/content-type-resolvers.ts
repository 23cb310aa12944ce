import type { IResolvers } from '@graphql-tools/utils';
import type { GraphQLResolveInfo } from 'graphql';
import type { ContentType, Models } from '../models/types';
import * as names from '../sdl/naming';
import { notFoundError } from '../errors/graphql-errors';
import { publicationOf, resolveLocale, type Scope, type Status } from '../documents/scope';
import { PUBLICATION_FILTERS, type PublicationFilter } from '../sdl/naming';
import type { FolioContext } from '../context';
import { filterTranslatorFor } from './filter-translator';
import { loadLocalizations, type ListArgs } from './relation-loader';
import { withScope, type ScopedRow } from './row-scope';
import { attributeFieldResolvers } from './attribute-resolvers';
import { prefetchRelations } from './prefetch-relations';
import { readConnection, readPage, type Connection, type ConnectionSource } from './connection-read';
import { withRelationWrites, type RelationWrite } from './relation-write-argument';

/** Shadow CRUD resolvers for every content-type: root queries and mutations, and relation fields. */

type Args = Record<string, unknown>;

const statusOf = (value: unknown): Status => (value === 'DRAFT' ? 'draft' : 'published');

const COHORT_BY_ENUM_VALUE = new Map<unknown, PublicationFilter>(PUBLICATION_FILTERS.map((cohort) => [names.publicationFilterEnumValue(cohort), cohort]));
const cohortOf = (value: unknown): PublicationFilter | undefined => COHORT_BY_ENUM_VALUE.get(value);

const readScope = (contentType: ContentType, args: Args, context: FolioContext, allowAllLocales: boolean): Scope => {
  const publication = publicationOf(cohortOf(args.publicationFilter), typeof args.hasPublishedVersion === 'boolean' ? args.hasPublishedVersion : undefined);
  return {
    status: statusOf(args.status),
    locale: resolveLocale(contentType, args.locale as string | undefined, context.services.config.i18n, allowAllLocales),
    ...(publication ? { publication } : {}),
  };
};

const listResolvers = (contentType: ContentType) => {
  const sourceOf = async (args: Args, context: FolioContext): Promise<ConnectionSource> => {
    const scope = readScope(contentType, args, context, true);
    return { contentType, scope, filter: await filterTranslatorFor(context, scope).translate(contentType, args.filters) };
  };
  return {
    list: async (_: unknown, args: Args, context: FolioContext, info: GraphQLResolveInfo) => {
      const { scope, filter } = await sourceOf(args, context);
      const { rows } = await readPage(context, contentType, scope, filter, args, false);
      await prefetchRelations(context, contentType, rows, info);
      return rows;
    },
    connection: async (_: unknown, args: Args, context: FolioContext, info: GraphQLResolveInfo): Promise<Connection> =>
      readConnection(context, await sourceOf(args, context), args, info),
  };
};

const writeScope = (contentType: ContentType, args: Args, context: FolioContext): Scope => readScope(contentType, args, context, false);

/**
 * A write's attributes, with the `relations` argument's writes in place. Strapi's inputs of types that
 * are not localized have a `locale`, which names nothing to store.
 */
const writeDataOf = (models: Models, contentType: ContentType) => (args: Args): Args => {
  const { locale, ...rest } = args.data as Args;
  const data = contentType.localized || locale === undefined ? (args.data as Args) : rest;
  return withRelationWrites(models, contentType.attributes, data, args.relations as RelationWrite[] | undefined);
};

const collectionTypeRoots = (models: Models, contentType: ContentType) => {
  const dataOf = writeDataOf(models, contentType);
  const { list, connection } = listResolvers(contentType);
  return {
    Query: {
      [names.singularQueryName(contentType)]: async (_: unknown, args: Args, context: FolioContext, info: GraphQLResolveInfo) => {
        const scope = readScope(contentType, args, context, false);
        const row = await context.services.documents.findOne(contentType, args.documentId as string, scope);
        if (!row) return null;
        await prefetchRelations(context, contentType, [withScope(context, row, scope)], info);
        return row;
      },
      [names.pluralQueryName(contentType)]: list,
      [names.connectionQueryName(contentType)]: connection,
    },
    Mutation: {
      [names.createMutationName(contentType)]: async (_: unknown, args: Args, context: FolioContext) => {
        const scope = writeScope(contentType, args, context);
        return withScope(context, await context.services.documents.create(contentType, dataOf(args), scope), scope);
      },
      [names.updateMutationName(contentType)]: async (_: unknown, args: Args, context: FolioContext) => {
        const scope = writeScope(contentType, args, context);
        return withScope(context, await context.services.documents.update(contentType, args.documentId as string, dataOf(args), scope), scope);
      },
      [names.deleteMutationName(contentType)]: async (_: unknown, args: Args, context: FolioContext) => {
        const locale = args.locale === undefined ? undefined : writeScope(contentType, args, context).locale;
        const documentId = args.documentId as string;
        const deleted = await context.services.documents.remove(contentType, documentId, locale);
        if (deleted === 0) throw notFoundError('Not Found', { documentId });
        return { documentId };
      },
    },
  };
};

const singleTypeRoots = (models: Models, contentType: ContentType) => {
  const dataOf = writeDataOf(models, contentType);
  return {
    Query: {
      [names.singularQueryName(contentType)]: async (_: unknown, args: Args, context: FolioContext, info: GraphQLResolveInfo) => {
        const scope = readScope(contentType, args, context, false);
        const row = await context.services.documents.findFirst(contentType, scope);
        if (!row) return null;
        await prefetchRelations(context, contentType, [withScope(context, row, scope)], info);
        return row;
      },
    },
    Mutation: {
      [names.updateMutationName(contentType)]: async (_: unknown, args: Args, context: FolioContext) => {
        const scope = writeScope(contentType, args, context);
        return withScope(context, await context.services.documents.upsertSingle(contentType, dataOf(args), scope), scope);
      },
      [names.deleteMutationName(contentType)]: async (_: unknown, args: Args, context: FolioContext) => {
        const locale = args.locale === undefined ? undefined : writeScope(contentType, args, context).locale;
        const documentId = await context.services.documents.singleDocumentId(contentType);
        if (!documentId || (await context.services.documents.remove(contentType, documentId, locale)) === 0) throw notFoundError();
        return { documentId };
      },
    },
  };
};

export const contentTypeResolvers = (models: Models, contentType: ContentType): IResolvers => {
  const roots = contentType.kind === 'singleType' ? singleTypeRoots(models, contentType) : collectionTypeRoots(models, contentType);
  const type = names.typeName(contentType);
  const fields = attributeFieldResolvers(models, contentType);
  if (contentType.localized) {
    const resolve = (parent: ScopedRow, args: ListArgs, context: FolioContext) => loadLocalizations(context, contentType, parent, args);
    fields.localizations = resolve;
    fields.localizations_connection = async (parent: ScopedRow, args: ListArgs, context: FolioContext) => ({ nodes: await resolve(parent, args, context) });
  }
  return {
    ...roots,
    [type]: fields,
    [names.entityCollectionName(type)]: { pageInfo: (parent: Connection) => parent.pageInfo() },
  } as IResolvers;
};
