import { validationErrors } from '../errors/graphql-errors';
import { isRecord } from '../common/is-record';

/**
 * `publishedAt` in a create or update body's `data`: Strapi v4's way to choose between draft and
 * published. Strapi 5 accepts and ignores it, and so does Folio; under `Strapi-Response-Format: v4`
 * it is honoured as v4 did: `null` writes a draft, a date publishes. Taken out before the body is
 * checked against the `<Type>Input`, which has no such field.
 */

export interface WithoutPublishedAt {
  body: unknown;
  /** the status a v4 body asks for; undefined when it asks for none or the request is not v4 */
  status?: 'DRAFT' | 'PUBLISHED';
}

export const takePublishedAt = (body: unknown, v4: boolean): WithoutPublishedAt => {
  if (!isRecord(body) || !isRecord(body.data) || !Object.hasOwn(body.data, 'publishedAt')) return { body };
  const { publishedAt, ...data } = body.data;
  const rest = { ...body, data };
  if (!v4) return { body: rest };
  if (publishedAt === null) return { body: rest, status: 'DRAFT' };
  if (typeof publishedAt === 'string' && !Number.isNaN(Date.parse(publishedAt))) return { body: rest, status: 'PUBLISHED' };
  throw validationErrors([{ path: ['publishedAt'], message: 'publishedAt must be a date or null', name: 'ValidationError', value: publishedAt }]);
};
