/**
 * The few OpenAPI 3.0 shapes Folio writes, and the pieces every REST route shares: Strapi's
 * `{ data, meta }` envelope and its error answers.
 */

export type SchemaObject = Record<string, unknown>;

export interface ResponseObject {
  description?: string;
  content?: Record<string, { schema?: SchemaObject }>;
  $ref?: string;
}

export interface OperationObject {
  responses?: Record<string, ResponseObject>;
  [key: string]: unknown;
}

export type OpenApiPaths = Record<string, Record<string, OperationObject>>;

export const ref = (kind: 'schemas' | 'parameters' | 'responses', name: string) => ({ $ref: `#/components/${kind}/${name}` });

export const envelopeOf = (data: SchemaObject, meta: SchemaObject = { type: 'object' }): SchemaObject => ({
  type: 'object',
  properties: { data, meta },
  required: ['data', 'meta'],
});

export const json = (description: string, schema: SchemaObject): ResponseObject => ({ description, content: { 'application/json': { schema } } });

export const errorResponses = (): Record<string, ResponseObject> => ({
  400: ref('responses', 'BadRequest'),
  401: ref('responses', 'Unauthorized'),
  403: ref('responses', 'Forbidden'),
});

const errorEnvelope: SchemaObject = {
  type: 'object',
  required: ['data', 'error'],
  properties: {
    data: { type: 'object', nullable: true, description: 'null on errors' },
    error: {
      type: 'object',
      required: ['status', 'name', 'message'],
      properties: { status: { type: 'integer' }, name: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } },
    },
  },
};

export const sharedComponents = () => ({
  schemas: {
    RestError: errorEnvelope,
    PaginationMeta: {
      type: 'object',
      properties: {
        pagination: {
          type: 'object',
          properties: {
            page: { type: 'integer' },
            pageSize: { type: 'integer' },
            pageCount: { type: 'integer' },
            start: { type: 'integer' },
            limit: { type: 'integer' },
            total: { type: 'integer' },
          },
        },
      },
    },
  },
  responses: Object.fromEntries(
    [
      ['BadRequest', 'Invalid query, body or operation (ValidationError, PaginationError, SyntaxError)'],
      ['Unauthorized', 'Missing or invalid credentials'],
      ['Forbidden', 'The credentials lack the permission'],
      ['NotFound', 'No such document'],
    ].map(([name, description]) => [name, json(description, ref('schemas', 'RestError'))]),
  ),
});
