import type { IncomingMessage, ServerResponse } from 'node:http';
import { print, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { filterSchema } from '@graphql-tools/utils';
import type * as SofaApi from 'sofa-api';
import type { Runtime } from '../folio-module';
import { errorBodyOf } from './rest-error';
import { errorBody, errorEnvelope } from '../error-envelope';
import { notFoundError } from '../../errors/graphql-errors';
import { createFetchRequest } from '../../graphql/fetch-request';
import { readBody, sendError, sendJson } from '../http-json';
import { extensionRootFields } from '../../openapi/extension-root-fields';
import { envelopeOf, errorResponses, type OpenApiPaths } from '../../openapi/openapi-shapes';
import { SCALAR_SCHEMAS } from '../../openapi/openapi-scalars';

/**
 * REST routes, by sofa-api, for the queries and mutations hand-written extensions add: sofa
 * maps each to a path and builds its OpenAPI description; the operation runs through the
 * `/graphql` pipeline like every REST request, and answers in the `{ data, meta }` envelope.
 * Shadow CRUD fields are filtered out of sofa's schema: the content routes compile them.
 */

export interface SofaRoutes {
  handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean>;
  /** OpenAPI paths under /api, responses patched to the envelope */
  paths: OpenApiPaths;
}

type SofaResponse = ReturnType<NonNullable<Parameters<typeof SofaApi.useSofa>[0]['errorHandler']>>;

const BASE = '/api';
/** sofa fills the OpenAPI document only with its OpenAPI endpoint on; it is never routed to. */
const UNROUTED_OPENAPI_ENDPOINT = '/_sofa/openapi.json';
const BODYLESS = new Set(['GET', 'HEAD']);

interface Matcher {
  method: string;
  pattern: RegExp;
}

const matchersOf = (paths: OpenApiPaths): Matcher[] =>
  Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => ({
      method: method.toUpperCase(),
      pattern: new RegExp(`^${BASE}${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    })),
  );

/** The envelope around sofa's bare answers, and Strapi's error names in it. */
const patchPaths = (paths: OpenApiPaths): OpenApiPaths =>
  Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      `${BASE}${path}`,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => {
          const responses = Object.fromEntries(
            Object.entries(operation.responses ?? {}).map(([status, answer]) => {
              const schema = answer.content?.['application/json']?.schema;
              return [status, schema ? { ...answer, description: answer.description || 'OK', content: { 'application/json': { schema: envelopeOf(schema) } } } : answer];
            }),
          );
          return [method, { ...operation, responses: { ...responses, ...errorResponses() } }];
        }),
      ),
    ]),
  );

export const createSofaRoutes = ({ services, schema, graphql, extensions }: Runtime): SofaRoutes | undefined => {
  const names = extensionRootFields(extensions);
  const served = (operation: string, name: string) => (operation === 'Query' || operation === 'Mutation') && names[operation].has(name);
  const rootFields = [schema.getQueryType(), schema.getMutationType()].flatMap((type) => Object.keys(type?.getFields() ?? {}).filter((name) => served(type?.name ?? '', name)));
  if (rootFields.length === 0) return undefined;
  // loaded only here: most projects add no root field, and sofa-api is ~0.3 s of module loading at every start
  const { useSofa } = require('sofa-api') as typeof SofaApi;

  const sources = new WeakMap<DocumentNode, string>();
  const sourceOf = (document: DocumentNode) => {
    let source = sources.get(document);
    if (source === undefined) sources.set(document, (source = print(document)));
    return source;
  };
  const execute = async (args: ExecutionArgs): Promise<ExecutionResult> => {
    const { request } = args.contextValue as { request: Request };
    const enveloped = graphql.getEnveloped({ request, params: { query: sourceOf(args.document), variables: args.variableValues ?? undefined }, pageLimits: services.config.rest });
    const errors = enveloped.validate(enveloped.schema, args.document);
    if (errors.length > 0) return { errors };
    const contextValue = await enveloped.contextFactory();
    return enveloped.execute({ ...args, schema: enveloped.schema, contextValue });
  };

  const router = useSofa({
    basePath: BASE,
    schema: filterSchema({ schema, rootFieldFilter: served }),
    context: ({ request }) => ({ request }),
    execute,
    errorHandler: (errors) => {
      const body = errorBodyOf(errors[0]);
      // sofa types its answers as fets' typed Response, which a standard Response is at run time.
      return graphql.fetchAPI.Response.json(errorEnvelope(body), { status: body.status }) as unknown as SofaResponse;
    },
    customScalars: SCALAR_SCHEMAS,
    openAPI: { endpoint: UNROUTED_OPENAPI_ENDPOINT },
    swaggerUI: { endpoint: false },
  });
  const sofaPaths = (router.openAPIDocument.paths ?? {}) as OpenApiPaths;
  const matchers = matchersOf(sofaPaths);
  const toFetchRequest = createFetchRequest(graphql.fetchAPI);

  return {
    paths: patchPaths(sofaPaths),
    async handle(request, response, url) {
      if (!matchers.some((matcher) => matcher.method === request.method && matcher.pattern.test(url.pathname))) return false;
      try {
        const body = BODYLESS.has(request.method ?? 'GET') ? undefined : (await readBody(request, services.config.rest.bodyLimit)).toString('utf8');
        const answer = await router.fetch(toFetchRequest(request, url, body));
        const text = answer ? await answer.text() : '';
        // Errors come from our errorHandler, already in the envelope; answers are sofa's bare values.
        if (!answer) sendError(response, errorBody(notFoundError()));
        else if (answer.status >= 400) sendJson(response, answer.status, JSON.parse(text));
        else sendJson(response, answer.status, { data: text ? JSON.parse(text) : null, meta: {} });
      } catch (error) {
        sendError(response, errorBodyOf(error));
      }
      return true;
    },
  };
};
