import * as names from '../sdl/naming';
import { PUBLICATION_FILTERS } from '../sdl/naming';
import type { ContentRoute, HttpMethod, ProjectRouteOperation, RouteOperation } from '../rest-compiler/content-routes';
import type { ContentType } from '../models/types';
import { envelopeOf, errorResponses, json, ref, type OpenApiPaths, type OperationObject, type ResponseObject, type SchemaObject } from './openapi-shapes';
import { documentSchemaName, fieldsSchemaName, filtersSchemaName, populateSchemaName } from './rest-schemas';
import { securityFor, type RolePermissions } from './route-security';
import { aggregateEntrySchemaName, aggregateQuerySchemaName, groupByQuerySchemaName } from './aggregation-schemas';

/**
 * OpenAPI paths of the content routes, from the same route table that serves them: documents as REST
 * answers them (rest-schemas), lists carry `meta.pagination`, writes take `{ data: <Type>Input }`; each
 * route's `filters`, `populate` and `fields` typed by its content type, and its security by role: the
 * permission it needs, and no credentials at all when the Public role has it.
 */

const deepObject = (name: string, description: string, schema: SchemaObject) => ({ name, in: 'query', style: 'deepObject', explode: true, description, schema });
const plain = (name: string, description: string, schema: SchemaObject = { type: 'string' }) => ({ name, in: 'query', description, schema });

/** The parameters whose schema is the content type's own. */
const typedParameters = (type: string) => ({
  fields: deepObject('fields', 'Leaf fields to return, e.g. `fields[0]=title` or `fields=title,views`; id and documentId always come', ref('schemas', fieldsSchemaName(type))),
  populate: deepObject('populate', '`*`, `a,b`, or the object form `populate[a][fields|filters|sort|populate|count|on]`', ref('schemas', populateSchemaName(type))),
  filters: deepObject('filters', 'e.g. `filters[title][$containsi]=x`, `filters[$or][0][views][$gt]=10`', ref('schemas', filtersSchemaName(type))),
  // a list's aggregation (docs/aggregation.md): the answer is then one `<Type>AggregateEntry` per group
  aggregate: deepObject(
    'aggregate',
    'aggregates instead of documents: `aggregate[count]=*`, `aggregate[sum][0]=views` (sum and avg: number attributes; min and max: number, date, time, datetime and string attributes); `sort=count:desc` orders the groups, `pagination` pages them',
    ref('schemas', aggregateQuerySchemaName(type)),
  ),
  groupBy: plain(
    'groupBy',
    'one entry per value of an attribute (`groupBy[0]=category`: a scalar, enumeration, boolean, date or to-one relation, by documentId), or per combination of the values of up to 8 (`groupBy[0]=category&groupBy[1]=kind` or `groupBy=category,kind`), each entry keyed by attribute (`group: { category, kind }`); `sort` may name an attribute, by default they order the entries ascending',
    ref('schemas', groupByQuerySchemaName(type)),
  ),
});

const AGGREGATION_PARAMETERS: ReadonlySet<string> = new Set(['aggregate', 'groupBy']);
/** a project's routes answer documents only (its core actions run the list, not the aggregation) */
const ON_CORE_ROUTES_ONLY: ReadonlySet<string> = new Set();

export const contentParameters = () => ({
  sort: plain('sort', '`title:desc`, `sort[0]=kind&sort[1]=views:desc` or `kind,views:desc`', { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }),
  pagination: deepObject('pagination', '`pagination[page|pageSize]` or `pagination[start|limit]`, and `pagination[withCount]`', {
    type: 'object',
    properties: {
      page: { type: 'integer', minimum: 1 },
      pageSize: { type: 'integer', minimum: 1 },
      start: { type: 'integer', minimum: 0 },
      limit: { type: 'integer', minimum: -1, description: '-1: the largest page (`api.rest.maxLimit`)' },
      withCount: { type: 'boolean' },
    },
    additionalProperties: false,
  }),
  status: plain('status', 'which version to read or write', { type: 'string', enum: ['draft', 'published'] }),
  locale: plain('locale', 'a configured locale; `*` lists every locale'),
  publicationFilter: plain('publicationFilter', 'documents by how their draft and published versions relate (draft & publish types)', { type: 'string', enum: [...PUBLICATION_FILTERS] }),
  hasPublishedVersion: plain('hasPublishedVersion', '`true`: documents with a published version; `false`: never published', { type: 'boolean' }),
  search: plain('_q', 'full-text search over the string and text attributes'),
  documentId: { name: 'documentId', in: 'path', required: true, schema: { type: 'string' } },
});

type ParameterName = keyof ReturnType<typeof contentParameters> | keyof ReturnType<typeof typedParameters>;

const PARAMETERS: Record<RouteOperation['action'] | 'list', ParameterName[]> = {
  list: ['fields', 'populate', 'filters', 'sort', 'pagination', 'status', 'publicationFilter', 'hasPublishedVersion', 'locale', 'search', 'aggregate', 'groupBy'],
  find: ['fields', 'populate', 'status', 'publicationFilter', 'hasPublishedVersion', 'locale'],
  findOne: ['fields', 'populate', 'status', 'publicationFilter', 'hasPublishedVersion', 'locale'],
  create: ['fields', 'populate', 'status', 'locale'],
  update: ['fields', 'populate', 'status', 'locale'],
  delete: ['locale'],
};

/** Where an operation sits: its path parameters, whether one names the document, its id, who may call it. */
interface PathShape {
  parameters: unknown[];
  namesDocument: boolean;
  operationId: string;
  /** `config.auth: false` on a project route: anyone, on this route */
  public: boolean;
}

const PUBLIC_ROUTE = { security: [{}, { bearerAuth: [] }], description: 'Open to anyone on this route (its config.auth is false).' };

const operationOf = (contentType: ContentType, operation: RouteOperation, shape: PathShape, roles: RolePermissions, aggregated: ReadonlySet<string>): OperationObject => {
  const type = names.typeName(contentType);
  const document = ref('schemas', documentSchemaName(type));
  const localized = contentType.localized;
  const aggregates = aggregated.has(type);
  const typed: Record<string, unknown> = typedParameters(type);
  const parameters = PARAMETERS[operation.list ? 'list' : operation.action]
    .filter((name) => (name !== 'locale' || localized) && (aggregates || !AGGREGATION_PARAMETERS.has(name)))
    .map((name) => typed[name] ?? ref('parameters', name));
  const listed = envelopeOf({ type: 'array', items: document }, ref('schemas', 'PaginationMeta'));
  // A document named by its documentId, or the single type's, may not exist (DELETE answers 204 regardless).
  const mayBeMissing = operation.action !== 'delete' && (shape.namesDocument || (operation.action === 'find' && !operation.list));
  const responses: Record<string, ResponseObject> =
    operation.action === 'delete'
      ? { 204: { description: 'Deleted' } }
      : operation.list
        ? { 200: json('OK', aggregates ? { anyOf: [listed, envelopeOf({ type: 'array', items: ref('schemas', aggregateEntrySchemaName(type)) })] } : listed) }
        : { [operation.action === 'create' ? 201 : 200]: json(operation.action === 'create' ? 'Created' : 'OK', envelopeOf(document)) };
  return {
    operationId: shape.operationId,
    tags: [contentType.displayName],
    ...(shape.public ? PUBLIC_ROUTE : securityFor(names.permissionFor(contentType, operation.action), roles, '')),
    parameters: [...shape.parameters, ...parameters],
    ...(operation.action === 'create' || operation.action === 'update'
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: ref('schemas', names.inputName(type)) } } } },
          },
        }
      : {}),
    responses: { ...responses, ...errorResponses(), ...(mayBeMissing ? { 404: ref('responses', 'NotFound') } : {}) },
  };
};

const defaultOperationId = (contentType: ContentType, operation: RouteOperation) => `${operation.action}${operation.list ? 'Many' : ''}${names.typeName(contentType)}`;

const pathItem = (route: ContentRoute, operations: Map<HttpMethod, RouteOperation>, withDocumentId: boolean, roles: RolePermissions, aggregated: ReadonlySet<string>) =>
  Object.fromEntries(
    [...operations].map(([method, operation]) => [
      method.toLowerCase(),
      operationOf(route.contentType, operation, { parameters: withDocumentId ? [ref('parameters', 'documentId')] : [], namesDocument: withDocumentId, operationId: defaultOperationId(route.contentType, operation), public: false }, roles, aggregated),
    ]),
  );

/** The content routes Folio serves by default (those of APIs without route files); `aggregated`: the types whose lists aggregate. */
export const contentPaths = (routes: ContentRoute[], roles: RolePermissions, aggregated: ReadonlySet<string>): OpenApiPaths => {
  const paths: OpenApiPaths = {};
  for (const route of routes) {
    const { contentType } = route;
    const base = `/api/${contentType.kind === 'collectionType' ? contentType.pluralName : contentType.singularName}`;
    if (route.base.size > 0) paths[base] = pathItem(route, route.base, false, roles, aggregated);
    if (route.document.size > 0) paths[`${base}/{documentId}`] = pathItem(route, route.document, true, roles, aggregated);
  }
  return paths;
};

/** A custom controller action's: its path, who may call it, and that what it answers is its own. */
const customActionOf = ({ route }: ProjectRouteOperation, shape: PathShape, roles: RolePermissions): OperationObject => ({
  operationId: shape.operationId,
  tags: [route.contentType.displayName],
  ...(shape.public ? PUBLIC_ROUTE : securityFor(route.permission, roles, `The custom action ${route.permission}.`)),
  parameters: shape.parameters,
  responses: { 200: { description: 'What the action answers' }, ...errorResponses() },
});

/**
 * The routes a project's route files declare, each as the core action it runs (what its middlewares
 * or controller do to the answer is theirs to say); `:name` parameters become `{name}`, `:id` naming the document.
 */
export const projectPaths = (routes: readonly ProjectRouteOperation[], roles: RolePermissions): OpenApiPaths => {
  const paths: OpenApiPaths = {};
  const used = new Set<string>();
  for (const entry of routes) {
    const { route, operation } = entry;
    const path = `/${route.segments.map((segment) => ('param' in segment ? `{${segment.param}}` : segment.literal)).join('/')}`;
    const namesDocument = route.contentType.kind === 'collectionType' && operation !== undefined && !operation.list && operation.action !== 'create';
    const parameters = route.segments.flatMap((segment) => ('param' in segment ? [{ name: segment.param, in: 'path', required: true, schema: { type: 'string' } }] : []));
    // a custom route runs the same action as a core route: its id adds its path
    const own = operation ? defaultOperationId(route.contentType, operation) : route.permission.replace(/\W+/g, '_');
    const base = `${own}${route.custom ? `_${route.path.slice('/api/'.length).replace(/\W+/g, '_')}` : ''}`;
    let operationId = base;
    for (let index = 2; used.has(operationId); index += 1) operationId = `${base}${index}`;
    used.add(operationId);
    const shape = { parameters, namesDocument, operationId, public: route.public };
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation ? operationOf(route.contentType, operation, shape, roles, ON_CORE_ROUTES_ONLY) : customActionOf(entry, shape, roles) };
  }
  return paths;
};
