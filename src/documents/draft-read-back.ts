import type { Attribute, Models } from '../models/types';
import { isRecord } from '../common/is-record';
import { componentTypeName } from '../sdl/naming';

/**
 * A draft as it reads back from the store. Strapi publishes by reading the draft it has just
 * written and validating that in full, so what a client left out is then `null` (`[]` for a list),
 * never absent: a required string left out of a published write is refused with
 * `title must be a \`string\` type, but the final value was: \`null\`.`, not `must be defined.`
 * (NOTES.md, exchange 77). Absent values take their default, as they are stored with it.
 * Relations are left as they are: nothing validates them as values.
 */

export const createDraftReadBack = (models: Models) => {
  const componentByName = new Map<string, Record<string, Attribute>>();
  for (const component of models.components.values()) {
    componentByName.set(component.uid, component.attributes);
    componentByName.set(componentTypeName(component), component.attributes);
  }

  const readValue = (attribute: Attribute, value: unknown): unknown => {
    if (value === undefined) {
      if ('default' in attribute && attribute.default !== undefined) return attribute.default;
      switch (attribute.type) {
        case 'relation':
        case 'morph':
          return undefined;
        case 'component':
          return attribute.repeatable ? [] : null;
        case 'dynamiczone':
          return [];
        case 'media':
          return attribute.multiple ? [] : null;
        default:
          return null;
      }
    }
    if (attribute.type === 'component') {
      const attributes = componentByName.get(attribute.component);
      const readItem = (item: unknown) => (isRecord(item) && attributes ? readDocument(attributes, item) : item);
      return attribute.repeatable && Array.isArray(value) ? value.map(readItem) : readItem(value);
    }
    if (attribute.type === 'dynamiczone' && Array.isArray(value)) {
      return value.map((entry) => {
        const name = isRecord(entry) ? (entry.__component ?? entry.__typename) : undefined;
        const attributes = typeof name === 'string' ? componentByName.get(name) : undefined;
        return isRecord(entry) && attributes ? readDocument(attributes, entry) : entry;
      });
    }
    return value;
  };

  /** `document`'s values read back, its other keys (ids, `__component`) kept */
  const readDocument = (attributes: Record<string, Attribute>, document: Record<string, unknown>): Record<string, unknown> => {
    const read: Record<string, unknown> = { ...document };
    for (const [name, attribute] of Object.entries(attributes)) {
      const value = readValue(attribute, document[name]);
      if (value !== undefined) read[name] = value;
    }
    return read;
  };

  return readDocument;
};
