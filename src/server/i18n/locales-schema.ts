import type { Extension } from '../../extensions/types';
import type { FolioContext, Services } from '../../context';
import type { ContentType } from '../../models/types';
import type { StoredDocument } from '../../storage/types';
import { GENERIC_MORPH, SHARED_NAMES as N } from '../../sdl/naming';
import { authDirective } from '../../sdl/sdl-builder';
import { createFilterTranslator } from '../../query/translate-filters';
import { parsePagination } from '../../query/parse-pagination';
import { parseSort } from '../../query/parse-sort';
import { createMatcher } from '../../storage/create-matcher';
import { sortInMemory } from '../../query/sort-in-memory';

/**
 * The configured locales on GraphQL, as Strapi's i18n plugin has them: `i18NLocale`,
 * `i18NLocales`, `i18NLocales_connection`, with filters, sort and pagination worked out in memory
 * (locales live in the config). Behind the same permission as `GET /api/i18n/locales`.
 */

type Args = Record<string, unknown>;

/** The locale described as a content-type, so that its filters and sort go through the one translator. */
const LOCALE_CONTENT_TYPE: ContentType = {
  uid: 'plugin::i18n.locale',
  apiName: 'i18n',
  kind: 'collectionType',
  collectionName: 'i18n_locale',
  singularName: 'locale',
  pluralName: 'locales',
  displayName: 'Locale',
  draftAndPublish: false,
  localized: false,
  attributes: { name: { type: 'string', localized: false }, code: { type: 'string', localized: false } },
  file: '(built in: i18n)',
};

const readArgs = `status: ${N.publicationStatus} = PUBLISHED, hasPublishedVersion: Boolean, publicationFilter: ${N.publicationFilter}`;
const listArgs = `filters: I18NLocaleFiltersInput, pagination: ${N.paginationArg} = {}, sort: [String] = [], ${readArgs}`;

const typeDefs = (permission: string) => `
input I18NLocaleFiltersInput {
  documentId: IDFilterInput
  name: StringFilterInput
  code: StringFilterInput
  createdAt: DateTimeFilterInput
  updatedAt: DateTimeFilterInput
  publishedAt: DateTimeFilterInput
  and: [I18NLocaleFiltersInput]
  or: [I18NLocaleFiltersInput]
  not: I18NLocaleFiltersInput
}

type I18NLocale {
  documentId: ID!
  name: String
  code: String
  createdAt: DateTime
  updatedAt: DateTime
  publishedAt: DateTime
}

type I18NLocaleEntityResponseCollection {
  nodes: [I18NLocale!]!
  pageInfo: ${N.pagination}!
}

extend union ${GENERIC_MORPH} = I18NLocale

type Query {
  i18NLocale(documentId: ID!, ${readArgs}): I18NLocale ${authDirective([permission])}
  i18NLocales_connection(${listArgs}): I18NLocaleEntityResponseCollection ${authDirective([permission])}
  i18NLocales(${listArgs}): [I18NLocale]! ${authDirective([permission])}
}
`;

export const createLocalesSchema = ({ models, config }: Services, locales: StoredDocument[], permission: string): Extension => {
  const translator = createFilterTranslator({
    models,
    maxStringLength: config.graphql.maxFilterStringLength,
    lookup: () => Promise.reject(new Error('locales have no relations to look up')),
  });

  const find = async (args: Args, context: FolioContext) => {
    const matches = createMatcher(await translator.translate(LOCALE_CONTENT_TYPE, args.filters));
    const sort = parseSort(LOCALE_CONTENT_TYPE.attributes, args.sort);
    const sorted = sortInMemory(locales.filter(matches), sort);
    const page = parsePagination(args.pagination as Args | undefined, context.pageLimits);
    return { rows: sorted.slice(page.skip, page.skip + page.limit), total: sorted.length, page };
  };

  return {
    typeDefs: typeDefs(permission),
    resolvers: {
      Query: {
        i18NLocale: (_: unknown, args: Args) => locales.find((locale) => locale.documentId === args.documentId) ?? null,
        i18NLocales: async (_: unknown, args: Args, context: FolioContext) => (await find(args, context)).rows,
        i18NLocales_connection: async (_: unknown, args: Args, context: FolioContext) => {
          const { rows, total, page } = await find(args, context);
          return {
            nodes: rows,
            pageInfo: {
              page: page.mode === 'page' ? page.page : Math.floor(page.skip / page.limit) + 1,
              pageSize: page.limit,
              pageCount: Math.ceil(total / page.limit),
              total,
            },
          };
        },
      },
    },
  };
};
