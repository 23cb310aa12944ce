import { isInputObjectType, isObjectType, isEnumType, isIntrospectionType, type GraphQLSchema } from 'graphql';
import type * as SofaApi from 'sofa-api';
import { FILE_CONTENT_TYPE } from '../media/file-model';
import type { Attribute, Models } from '../models/types';
import * as names from '../sdl/naming';
import type { ContentRoute, ProjectRouteOperation } from '../rest-compiler/content-routes';
import { contentParameters, contentPaths, projectPaths } from './content-paths';
import type { RolePermissions } from './route-security';
import { sharedComponents, type OpenApiPaths, type SchemaObject } from './openapi-shapes';
import { pluginPaths } from './plugin-paths';
import { restSchemas } from './rest-schemas';
import { aggregateQuerySchemaName, aggregationSchemas } from './aggregation-schemas';
import { SCALAR_SCHEMAS } from './openapi-scalars';

/**
 * The OpenAPI 3 document of `/api`: the content routes, the plugins' routes (users, upload, i18n) and
 * the routes sofa makes of hand-written extensions. Documents are described as REST answers them
 * (rest-schemas); GraphQL types appear only where a route takes or answers one (`<Type>Input` bodies,
 * extension operations), in sofa's translation.
 */

const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);

/**
 * The relation fields of each `<Type>Input`: typed `ID`/`[ID]` as Strapi's GraphQL types them, while a
 * REST body may hold them in every form (the REST front hands those to the `relations` argument).
 */
const relationInputFields = (models: Models): Map<string, string[]> => {
  const relationsOf = (attributes: Record<string, Attribute>) => Object.entries(attributes).filter(([, attribute]) => attribute.type === 'relation').map(([name]) => name);
  return new Map([
    ...[...models.contentTypes.values()].map((contentType): [string, string[]] => [names.inputName(names.typeName(contentType)), relationsOf(contentType.attributes)]),
    ...[...models.components.values()].map((component): [string, string[]] => [names.inputName(names.componentTypeName(component)), relationsOf(component.attributes)]),
  ]);
};

/** sofa's schema for each object, input and enum type of the executable schema. */
const typeSchemas = (schema: GraphQLSchema, models: Models): Record<string, SchemaObject> => {
  // sofa-api (~0.3 s of module loading) when a document is first asked for, not at every start
  const { buildSchemaObjectFromType } = require('sofa-api') as typeof SofaApi;
  const schemas: Record<string, SchemaObject> = {};
  const relationFields = relationInputFields(models);
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type) || ROOT_TYPES.has(type.name)) continue;
    if (isObjectType(type) || isInputObjectType(type)) schemas[type.name] = buildSchemaObjectFromType(type, { customScalars: SCALAR_SCHEMAS }) as SchemaObject;
    else if (isEnumType(type)) schemas[type.name] = { type: 'string', enum: type.getValues().map((value) => value.name) };
    const properties = schemas[type.name]?.properties as Record<string, SchemaObject> | undefined;
    for (const field of (isInputObjectType(type) && relationFields.get(type.name)) || []) {
      if (properties && field in properties) properties[field] = SCALAR_SCHEMAS.RelationInput;
    }
  }
  return schemas;
};

const SCHEMA_REF = /"#\/components\/schemas\/([^"]+)"/g;

/** The schemas `roots` refer to, directly or through each other: the GraphQL types no route uses are left out. */
const reachable = (roots: unknown, schemas: Record<string, SchemaObject>): Record<string, SchemaObject> => {
  const kept: Record<string, SchemaObject> = {};
  const pending = [JSON.stringify(roots)];
  for (let text = pending.pop(); text !== undefined; text = pending.pop()) {
    for (const [, name] of text.matchAll(SCHEMA_REF)) {
      if (name in kept || !(name in schemas)) continue;
      kept[name] = schemas[name];
      pending.push(JSON.stringify(schemas[name]));
    }
  }
  return kept;
};

export interface OpenApiSources {
  schema: GraphQLSchema;
  models: Models;
  /** the content routes served by default */
  routes: ContentRoute[];
  /** the routes the project's route files declare */
  projectRoutes?: readonly ProjectRouteOperation[];
  extensionPaths: OpenApiPaths;
  /** role type → its permissions: each route's security by role */
  roles: RolePermissions;
}

export const buildOpenApiDocument = ({ schema, models, routes, projectRoutes = [], extensionPaths, roles }: OpenApiSources) => {
  const shared = sharedComponents();
  // media files are not among the models' content types, yet REST answers them (populated media, /api/upload)
  const rest = restSchemas({ ...models, contentTypes: new Map([...models.contentTypes, [FILE_CONTENT_TYPE.uid, FILE_CONTENT_TYPE]]) });
  const file = rest.names.document(FILE_CONTENT_TYPE.uid);
  const user = rest.names.document('plugin::users-permissions.user');
  const aggregation = aggregationSchemas(schema, models);
  const aggregated = new Set([...models.contentTypes.values()].map((contentType) => names.typeName(contentType)).filter((type) => aggregateQuerySchemaName(type) in aggregation));
  const paths = { ...contentPaths(routes, roles, aggregated), ...projectPaths(projectRoutes, roles), ...pluginPaths({ user, file }, roles), ...extensionPaths };
  const own = { ...rest.schemas, ...aggregation, ...shared.schemas };
  return {
    openapi: '3.0.3',
    info: { title: 'Folio content API', version: '5', description: 'The Strapi 5 content API: documents under /api, compiled onto the GraphQL schema.' },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }, {}],
    paths,
    components: {
      schemas: { ...reachable([paths, own], typeSchemas(schema, models)), ...own },
      parameters: contentParameters(),
      responses: shared.responses,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token, or a user JWT from /api/auth/local' } },
    },
  };
};
