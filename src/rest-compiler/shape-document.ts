import { leafFieldsOf, populatedInOrder, type Selection } from './selection';
import { renamedEnumValues } from '../models/enum-values';
import { zoneAliasPrefix } from './selection-plan';

/**
 * GraphQL result → Strapi's REST document. The compiled selection already put every key in
 * Strapi's order; what is left is what GraphQL cannot say: numeric ids (ID serialises as a
 * string), dynamic-zone entries named by component uid (`__component`, last), relation counts.
 *
 * Each document is copied into a plain object on the way: graphql-js builds results as
 * null-prototype objects, which V8 keeps in dictionary mode, and JSON.stringify walks those
 * several times slower than the copy costs.
 */

export type Document = Record<string, unknown>;
export type Shaper = (document: Document) => Document;

type Step = (source: Document, target: Document) => void;

const mapValue = (value: unknown, shape: Shaper): unknown =>
  Array.isArray(value) ? value.map((item) => shape(item as Document)) : value === null || value === undefined ? value : shape(value as Document);

/** `prefix`: the response-key prefix of a dynamic-zone component's fields (see zoneAliasPrefix), taken off here. */
export const createShaper = (selection: Selection, prefix = ''): Shaper => {
  const steps = new Map<string, Step>();
  // GraphQL answers an enumeration with its GraphQL name; REST with the value as stored (see enum-values)
  for (const field of leafFieldsOf(selection)) {
    const attribute = Object.prototype.hasOwnProperty.call(selection.view.attributes, field) ? selection.view.attributes[field] : undefined;
    const values = attribute && renamedEnumValues(attribute);
    if (!values) continue;
    const key = `${prefix}${field}`;
    steps.set(key, (source, target) => {
      const value = source[key];
      target[field] = typeof value === 'string' ? (values.get(value) ?? value) : value;
    });
  }
  for (const node of populatedInOrder(selection)) {
    const name = node.populatable.name;
    const key = `${prefix}${name}`;
    if (node.kind === 'count') {
      steps.set(key, (source, target) => {
        const related = source[key];
        target[name] = { count: Array.isArray(related) ? related.length : 0 };
      });
    } else if (node.kind === 'dynamiczone' || node.kind === 'morph') {
      // a zone's entries are named by `__component`, a polymorphic relation's items by `__type`, as Strapi names them
      const tag = node.kind === 'dynamiczone' ? '__component' : '__type';
      const byTypeName = new Map(
        [...node.components].map(([uid, component], index) => [component.view.typeName, { uid, shape: createShaper(component, zoneAliasPrefix(index)) }]),
      );
      const shapeEntry = (entry: Document): Document[] => {
        const component = byTypeName.get(entry.__typename as string);
        if (!component) return [];
        const shaped = component.shape(entry);
        shaped[tag] = component.uid;
        return [shaped];
      };
      const toOne = node.kind === 'morph' && node.populatable.kind === 'morph' && !node.populatable.toMany;
      steps.set(key, (source, target) => {
        const value = source[key];
        // Entries of components not asked for (`on`) or no longer in the zone only carry `__typename`: left out.
        if (toOne) target[name] = value === null || value === undefined ? null : (shapeEntry(value as Document)[0] ?? null);
        else target[name] = (Array.isArray(value) ? (value as Document[]) : []).flatMap(shapeEntry);
      });
    } else {
      const shape = createShaper(node.selection);
      steps.set(key, (source, target) => {
        target[name] = mapValue(source[key], shape);
      });
    }
  }
  return (source) => {
    const target: Document = {};
    for (const key in source) {
      const step = steps.get(key);
      if (step) step(source, target);
      // `__typename` is only selected to name dynamic-zone entries.
      else if (key !== '__typename') target[prefix && key.startsWith(prefix) ? key.slice(prefix.length) : key] = source[key];
    }
    if (typeof target.id === 'string') target.id = Number(target.id);
    return target;
  };
};
