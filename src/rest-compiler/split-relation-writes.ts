import type { Attribute, Models } from '../models/types';
import type { RelationWrite } from '../resolvers/relation-write-argument';
import { isRecord } from '../common/is-record';

/**
 * A REST body's relations in the forms Strapi's REST takes and its GraphQL `ID` fields do not
 * (`{ connect, disconnect, set }`, positions, numeric ids, `{ id }` objects) are taken out of `data`
 * and handed to the mutation's `relations` argument with their path; documentIds stay where they are.
 * Dynamic zones are left alone: their input is JSON, which holds any form.
 */

const fitsIdField = (value: unknown): boolean =>
  value === null || typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'));

export const splitRelationWrites = (models: Models, attributes: Record<string, Attribute>, data: Record<string, unknown>): { data: Record<string, unknown>; relations: RelationWrite[] } => {
  const relations: RelationWrite[] = [];
  const walk = (owner: Record<string, Attribute>, value: Record<string, unknown>, path: string[]): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(value).flatMap(([name, item]): Array<[string, unknown]> => {
        const attribute = Object.hasOwn(owner, name) ? owner[name] : undefined;
        if (attribute?.type === 'relation' && item !== undefined && !fitsIdField(item)) {
          relations.push({ path: [...path, name], value: item });
          return [];
        }
        const component = attribute?.type === 'component' ? models.components.get(attribute.component) : undefined;
        if (!component) return [[name, item]];
        if (Array.isArray(item)) return [[name, item.map((entry, index) => (isRecord(entry) ? walk(component.attributes, entry, [...path, name, String(index)]) : entry))]];
        return [[name, isRecord(item) ? walk(component.attributes, item, [...path, name]) : item]];
      }),
    );
  return { data: walk(attributes, data, []), relations };
};
