import { isInputObjectType, type GraphQLSchema } from 'graphql';
import type { Attribute } from '../models/types';
import { badUserInput } from '../errors/graphql-errors';
import type { OwnerView } from './owner-views';

/**
 * `_q=<text>`: a case-insensitive search over the string and text attributes, expressed as the
 * FiltersInput `or` of `containsi` filters, so it runs through the one filter translator and
 * combines with `filters` by AND.
 */

const SEARCHABLE = new Set<Attribute['type']>(['string', 'text', 'richtext', 'email', 'uid']);

export const createSearchFilter = (schema: GraphQLSchema, view: OwnerView) => {
  const type = view.filtersInput ? schema.getType(view.filtersInput) : undefined;
  const filterable = isInputObjectType(type) ? type.getFields() : {};
  const fields = Object.entries(view.attributes)
    .filter(([name, attribute]) => SEARCHABLE.has(attribute.type) && name in filterable)
    .map(([name]) => name);
  return (text: unknown): Record<string, unknown> => {
    if (typeof text !== 'string') throw badUserInput('Invalid _q: expected a string', { key: '_q', path: null, source: 'query', param: '_q' });
    // No searchable attribute: `or: []` matches nothing, as a search with no field to match should.
    return { or: fields.map((name) => ({ [name]: { containsi: text } })) };
  };
};
