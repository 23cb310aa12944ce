import type { Attribute, Models } from '../models/types';
import { isRecord } from '../common/is-record';
import { componentTypeName } from '../sdl/naming';

/**
 * A write's data as the entity validator hands it to yup, at every level yup walks (the document,
 * its components, their lists, zone entries):
 * - without keys named like a member of `Object.prototype` (`toString`, `__proto__`): yup 0.32
 *   looks a key up among its fields on a plain object, finds the prototype's member and throws a
 *   TypeError. They name no attribute, and prepare-data.ts refuses them with their path.
 * - a zone entry named by its GraphQL type (`__typename`, as Folio accepts on both surfaces) with
 *   its component's uid in `__component`, which the zone's rules check, as Strapi's GraphQL passes it on.
 */

export const createYupInput = (models: Models) => {
  const uidByTypeName = new Map([...models.components.values()].map((component) => [componentTypeName(component), component.uid]));
  const attributesOf = (uid: unknown) => (typeof uid === 'string' ? models.components.get(uid)?.attributes : undefined);

  const entryOf = (entry: unknown): unknown => {
    if (!isRecord(entry) || entry.__component !== undefined || typeof entry.__typename !== 'string') return entry;
    return { ...entry, __component: uidByTypeName.get(entry.__typename) ?? entry.__typename };
  };

  const valueOf = (attribute: Attribute, value: unknown): unknown => {
    if (attribute.type === 'component') {
      const attributes = attributesOf(attribute.component);
      if (!attributes) return value;
      return Array.isArray(value) ? value.map((item) => documentOf(attributes, item)) : documentOf(attributes, value);
    }
    if (attribute.type === 'dynamiczone' && Array.isArray(value)) {
      return value.map((given) => {
        const entry = entryOf(given);
        const attributes = isRecord(entry) ? attributesOf(entry.__component) : undefined;
        return attributes ? documentOf(attributes, entry) : entry;
      });
    }
    return value;
  };

  const documentOf = (attributes: Record<string, Attribute>, value: unknown): unknown => {
    if (!isRecord(value)) return value;
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (key in Object.prototype) continue;
      result[key] = Object.hasOwn(attributes, key) ? valueOf(attributes[key], item) : item;
    }
    return result;
  };

  return (attributes: Record<string, Attribute>, data: Record<string, unknown>): Record<string, unknown> =>
    documentOf(attributes, data) as Record<string, unknown>;
};
