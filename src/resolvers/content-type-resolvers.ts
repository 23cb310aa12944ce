import type { IResolvers } from '@graphql-tools/utils';
import type { GraphQLResolveInfo } from 'graphql';
import type { ContentType, Models } from '../models/types';
import type { StoredDocument } from '../storage/types';
import * as names from '../sdl/naming';
import { notFoundError } from '../errors/graphql-errors';
import { parsePagination } from '../query/parse-pagination';
import { parseSortPaths } from '../query/parse-sort';
import { publicationOf, resolveLocale, type Scope, type Status } from '../documents/scope';
import { PUBLICATION_FILTERS, type PublicationFilter } from '../sdl/naming';
import type { FolioContext } from '../context';
import { filterTranslatorFor } from './filter-translator';
import { loadLocalizations, type ListArgs } from './relation-loader';
import { withScope, type ScopedRow } from './row-scope';
import { findSortedThroughRelations } from './relation-sort';
import { attributeFieldResolvers } from './attribute-resolvers';
import { prefetchConnectionRelations, prefetchRelations } from './prefetch-relations';
import { selectsSubField } from './selected-fields';
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

const scoped = (context: FolioContext, rows: StoredDocument[], scope: Scope): StoredDocument[] => rows.map((row) => withScope(context, row, scope));

interface Connection {
  nodes: StoredDocument[];
  pageInfo: () => Promise<{ page: number; pageSize: number; pageCount: number; total: number }>;
}

const listResolvers = (contentType: ContentType) => {
  /** `withTotal`: the total is wanted too, and read with the page where the store can (one search for both) */
  const find = async (args: Args, context: FolioContext, withTotal: boolean) => {
    const scope = readScope(contentType, args, context, true);
    const page = parsePagination(args.pagination as Args | undefined, context.pageLimits);
    const keys = parseSortPaths(context.services.models, contentType, args.sort);
    const filter = await filterTranslatorFor(context, scope).translate(contentType, args.filters);
    if (keys.some((key) => key.path.length > 1)) {
      const rows = await findSortedThroughRelations(context, contentType, scope, filter, keys, page);
      return { rows: scoped(context, rows, scope), scope, filter, page, total: undefined };
    }
    const query = { filter, sort: keys.map(({ path, direction }): [string, 1 | -1] => [path[0], direction]), skip: page.skip, limit: page.limit };
    const { documents: rows, total } = withTotal
      ? await context.services.documents.findPage(contentType, scope, query)
      : { documents: await context.services.documents.findMany(contentType, scope, query), total: undefined };
    return { rows: scoped(context, rows, scope), scope, filter, page, total };
  };
  return {
    list: async (_: unknown, args: Args, context: FolioContext, info: GraphQLResolveInfo) => {
      const { rows } = await find(args, context, false);
      await prefetchRelations(context, contentType, rows, info);
      return rows;
    },
    connection: async (_: unknown, args: Args, context: FolioContext, info: GraphQLResolveInfo): Promise<Connection> => {
      const { rows, scope, filter, page, total: found } = await find(args, context, selectsSubField(info, 'pageInfo'));
      await prefetchConnectionRelations(context, contentType, rows, info);
      return {
        nodes: rows,
        // Counting costs a query: only done when pageInfo is selected.
        pageInfo: async () => {
          const total = found ?? (await context.services.documents.count(contentType, scope, filter));
          const pageSize = page.limit;
          return {
            page: page.mode === 'page' ? page.page : Math.floor(page.skip / pageSize) + 1,
            pageSize,
            pageCount: Math.ceil(total / pageSize),
            total,
          };
        },
      };
    },
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
