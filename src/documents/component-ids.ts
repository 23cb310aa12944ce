import type { Attribute, Models } from '../models/types';
import type { StoredDocument, StoredValue } from '../storage/types';

/**
 * The components a stored document holds, by attribute path without list indexes (`seo`,
 * `sections`, `seo.keywords`) and id: an update may name these and no others, as Strapi refuses
 * components "not related to the entity". A component kept by its id is changed from its stored
 * value (a `connect` in it adds to the relations it holds).
 */

export type OwnedComponentIds = Map<string, Map<number, StoredDocument>>;

const isObject = (value: StoredValue | undefined): value is StoredDocument => typeof value === 'object' && value !== null && !Array.isArray(value);

export const ownedComponentIds = (models: Models, attributes: Record<string, Attribute>, row: StoredDocument): OwnedComponentIds => {
  const owned: OwnedComponentIds = new Map();
  const visit = (attributesHere: Record<string, Attribute>, values: StoredDocument, prefix: string) => {
    for (const [name, attribute] of Object.entries(attributesHere)) {
      if (attribute.type !== 'component' && attribute.type !== 'dynamiczone') continue;
      const value = values[name];
      const items = Array.isArray(value) ? value : [value];
      const path = `${prefix}${name}`;
      for (const item of items) {
        if (!isObject(item) || typeof item.id !== 'number') continue;
        if (!owned.has(path)) owned.set(path, new Map());
        owned.get(path)!.set(item.id, item);
        const uid = attribute.type === 'component' ? attribute.component : item.__component;
        const component = typeof uid === 'string' ? models.components.get(uid) : undefined;
        if (component) visit(component.attributes, item, `${path}.`);
      }
    }
  };
  visit(attributes, row, '');
  return owned;
};

/** `sections.3.items.0` → `sections.items`: where in the model a written component sits. */
export const attributePathOf = (path: readonly string[]): string => path.filter((segment) => !/^\d+$/.test(segment)).join('.');
