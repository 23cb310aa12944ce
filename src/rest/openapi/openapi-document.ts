import { isInputObjectType, isObjectType, isEnumType, isIntrospectionType, type GraphQLSchema } from 'graphql';
import { buildSchemaObjectFromType } from 'sofa-api';
import * as names from '../../sdl/naming';
import type { ContentRoute } from '../content-routes';
import { contentParameters, contentPaths, documentSchema, documentSchemaName } from './content-paths';
import { sharedComponents, type OpenApiPaths, type SchemaObject } from './openapi-shapes';
import { SCALAR_SCHEMAS } from './scalar-schemas';

/**
 * The OpenAPI 3 document of `/api`: the content routes, the routes sofa makes of hand-written
 * extensions, and a schema for every GraphQL type (sofa's translation), documents and inputs alike.
 */

const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);

/** sofa's schema for each object, input and enum type of the executable schema. */
const typeSchemas = (schema: GraphQLSchema): Record<string, SchemaObject> => {
  const schemas: Record<string, SchemaObject> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type) || ROOT_TYPES.has(type.name)) continue;
    if (isObjectType(type) || isInputObjectType(type)) schemas[type.name] = buildSchemaObjectFromType(type, { customScalars: SCALAR_SCHEMAS }) as SchemaObject;
    else if (isEnumType(type)) schemas[type.name] = { type: 'string', enum: type.getValues().map((value) => value.name) };
  }
  return schemas;
};

export const buildOpenApiDocument = (schema: GraphQLSchema, routes: ContentRoute[], extensionPaths: OpenApiPaths) => {
  const shared = sharedComponents();
  const documents = Object.fromEntries(
    routes.map((route) => {
      const type = names.typeName(route.contentType);
      return [documentSchemaName(type), documentSchema(type)];
    }),
  );
  return {
    openapi: '3.0.3',
    info: { title: 'Folio content API', version: '5', description: 'The Strapi 5 content API: documents under /api, compiled onto the GraphQL schema.' },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }, {}],
    paths: { ...contentPaths(routes), ...extensionPaths },
    components: {
      schemas: { ...typeSchemas(schema), ...documents, ...shared.schemas },
      parameters: contentParameters(),
      responses: shared.responses,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token, or a user JWT from /api/auth/local' } },
    },
  };
};
