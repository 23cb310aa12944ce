import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { GraphQLSchema } from 'graphql';
import { createDocumentCache, createParsedDocumentCache } from './document-cache';
import { maskError } from './mask-errors';
import type { FolioConfig } from '../config/types';
import type { Services, FolioContext, PageLimits } from '../context';
import type { Authenticator } from '../auth/authenticate';
import type { Principal } from '../auth/principal';
import { useAuthorization } from './plugins/use-authorization';
import { useAmountLimit } from './plugins/use-amount-limit';
import { typeName } from '../sdl/naming';
import { useIntrospectionControl } from './plugins/use-introspection-control';
import { useClientErrors } from './plugins/use-client-errors';
import { useNestingLimit } from './plugins/use-nesting-limit';
import { useFiniteFloats } from './plugins/use-finite-floats';
import { useDepthLimit } from './plugins/use-depth-limit';
import { useFieldRepeatLimit } from './plugins/use-field-repeat-limit';
import { useInputDepthLimit } from './plugins/use-input-depth-limit';
import { useNoStore } from './plugins/use-no-store';
import { useCostLimit } from './plugins/use-cost-limit';
import { useReadBudget } from './plugins/use-read-budget';
import { useResponseSizeLimit } from './plugins/use-response-size-limit';
import { forGraphqlOnly } from './plugins/for-graphql-only';
import { useTrustedDocuments } from './plugins/use-trusted-documents';
import { renderOfflineGraphiql } from './graphiql/offline-graphiql';
import { useOperationMetrics } from './plugins/use-operation-metrics';
import type { FolioMetrics } from '../metrics/folio-metrics';
import type { ResponseCache } from './response-cache/response-cache';
import { useSortKeyLimit } from './plugins/use-sort-key-limit';

/**
 * graphql-yoga with the envelop pipeline every request goes through, GraphQL and REST alike:
 * depth limit (root field = depth 0, as Strapi counts), graphql-armor's alias/token/directive/cost
 * limits, authorization before execution, and the amount limit on results.
 */

export type GraphqlServer = YogaServerInstance<Record<string, unknown>, FolioContext>;

/** Fields one selection set may give one response name: a merge check compares each pair (see use-field-repeat-limit). */
const MAX_FIELD_REPEATS = 30;

/** Brackets of a document's source: past what the depth and input-depth limits let through, far below the parser's stack. */
const MAX_NESTING = 256;

/** REST hands its own limits to the pipeline with the request (see run-operation). */
const isPageLimits = (value: unknown): value is PageLimits =>
  typeof value === 'object' && value !== null && typeof (value as PageLimits).defaultLimit === 'number' && typeof (value as PageLimits).maxLimit === 'number';

/** REST hands the caller it settled with the request (see run-operation). */
const isPrincipal = (value: unknown): value is Principal =>
  typeof value === 'object' && value !== null && typeof (value as Principal).can === 'function' && typeof (value as Principal).grants === 'string';

const isProduction = (config: FolioConfig) => config.env === 'production';

/** `graphql.config.yoga.plugins`, checked to be objects when the config was read. */
const userPlugins = (yoga: Record<string, unknown>): Array<Plugin<Record<string, unknown>>> =>
  Array.isArray(yoga.plugins) ? (yoga.plugins as Array<Plugin<Record<string, unknown>>>) : [];

const graphiqlByDefault = (config: FolioConfig) => !isProduction(config) || config.graphql.playgroundAlways;

/** Whether yoga serves GraphiQL at the endpoint (GET with `Accept: text/html`): the yoga options' `graphiql` has the last word. */
export const servesGraphiql = (config: FolioConfig): boolean => {
  const { yoga } = config.graphql;
  return 'graphiql' in yoga ? Boolean(yoga.graphiql) : graphiqlByDefault(config);
};

export interface GraphqlServerOptions {
  /** the plugins extension modules export, run with the user's own from config */
  extensionPlugins?: Array<Plugin<Record<string, unknown>>>;
  /** where operations are counted and timed, when `server.metrics` is on */
  metrics?: FolioMetrics;
  /** `graphql.config.responseCache`, when on */
  responseCache?: ResponseCache;
}

export const createGraphqlServer = (
  schema: GraphQLSchema,
  services: Services,
  authenticator: Authenticator,
  { extensionPlugins = [], metrics, responseCache }: GraphqlServerOptions = {},
): GraphqlServer => {
  const { config } = services;
  const graphql = config.graphql;
  // No GraphQL page is longer than amountLimit: the page is clamped, so pageInfo says how long it is.
  const pageCap = graphql.amountLimit === false ? Infinity : graphql.amountLimit;
  const graphqlLimits: PageLimits = { defaultLimit: Math.min(graphql.defaultLimit, pageCap), maxLimit: Math.min(graphql.maxLimit, pageCap) };
  const rejectWith400 = [
    (_: unknown, error: { extensions: Record<string, unknown> }) => {
      Object.assign(error.extensions, { http: { status: 400 }, code: error.extensions.code ?? 'GRAPHQL_VALIDATION_FAILED' });
    },
  ];
  // `false` in the config turns an armour limit off
  const armorLimit = (n: number | false) => (n === false ? { enabled: false } : { n, onReject: rejectWith400 as never });
  return createYoga<Record<string, unknown>, FolioContext>({
    schema,
    graphqlEndpoint: graphql.endpoint,
    graphiql: graphiqlByDefault(config),
    // its files from the installed package, served by the HTTP front: no CDN
    renderGraphiQL: renderOfflineGraphiql,
    landingPage: false,
    // the HTTP front holds bodies to `rest.bodyLimit` (see graphql-request-handler)
    maxRequestBodySize: false,
    // bounded by bytes (see document-cache)
    parserAndValidationCache: { documentCache: createParsedDocumentCache(), errorCache: createDocumentCache<unknown>() },
    logging: isProduction(config) ? 'warn' : 'error',
    maskedErrors: { maskError },
    ...graphql.yoga,
    cors: false, // after `yoga`, so CORS has one implementation for every route: the HTTP front's (src/server/cors.ts)
    context: async ({ request, pageLimits, surface, principal }) => {
      const authenticate = () => authenticator.authenticate(request.headers.get('authorization'));
      const rest = surface === 'rest' && isPageLimits(pageLimits);
      return {
        services,
        // a project route settles its caller before its policies run (`auth: false` widens it): asked once
        principal: rest && isPrincipal(principal) ? principal : await authenticate(),
        authenticate,
        loaders: new Map(),
        rowScopes: new WeakMap(),
        request,
        surface: rest ? 'rest' : 'graphql',
        pageLimits: rest ? pageLimits : graphqlLimits,
      };
    },
    plugins: [
      ...(metrics ? [useOperationMetrics(metrics) as Plugin] : []),
      useResponseSizeLimit(graphql.maxResponseBytes),
      useNoStore(),
      useClientErrors(),
      ...(graphql.persistedOperations ? [useTrustedDocuments(graphql.persistedOperations)] : []),
      useNestingLimit(MAX_NESTING),
      useFiniteFloats(),
      useIntrospectionControl(graphql.introspection ?? !isProduction(config)),
      forGraphqlOnly(useFieldRepeatLimit(MAX_FIELD_REPEATS)),
      ...(graphql.depthLimit === false ? [] : [forGraphqlOnly(useDepthLimit(graphql.depthLimit))]),
      ...(graphql.maxInputDepth === false ? [] : [useInputDepthLimit(graphql.maxInputDepth)]),
      forGraphqlOnly(
        EnvelopArmorPlugin({
          maxDepth: { enabled: false },
          blockFieldSuggestion: { enabled: isProduction(config) },
          maxAliases: armorLimit(graphql.maxAliases),
          maxTokens: armorLimit(graphql.maxTokens),
          maxDirectives: armorLimit(graphql.maxDirectives),
          // lists multiply: see useCostLimit
          costLimit: { enabled: false },
        }),
      ),
      ...(graphql.maxCost === false ? [] : [useCostLimit({ maxCost: graphql.maxCost, defaultLimit: graphql.defaultLimit, maxLimit: graphql.maxLimit })]),
      // on whatever maxSortKeys says: a key given twice is refused even with the count off
      useSortKeyLimit(graphql.maxSortKeys),
      useAuthorization((context) => (context as FolioContext).principal),
      ...(graphql.maxReadBytes === false ? [] : [useReadBudget(graphql.maxReadBytes)]),
      ...(graphql.amountLimit === false
        ? []
        : [forGraphqlOnly(useAmountLimit({ amountLimit: graphql.amountLimit, contentTypeNames: new Set([...services.models.contentTypes.values()].map(typeName)) }))]),
      // after every check of the operation and the caller: a cached answer is handed only to whom they let through
      ...(responseCache ? [responseCache.plugin] : []),
      // the user's own (extension modules, graphql.config.yoga.plugins): after Folio's limits, on /graphql and REST alike
      ...extensionPlugins,
      ...userPlugins(graphql.yoga),
    ],
  });
};
