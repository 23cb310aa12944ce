import { populatedInOrder, type Selection } from './selection';
import type { Document } from './shape-document';

/**
 * Strapi 5's migration aid (`Strapi-Response-Format: v4`): a document becomes
 * `{ id, documentId, attributes }` (Strapi 5.54 keeps `documentId` beside `id`) and every relation,
 * media field and count is wrapped as `{ data }`; components and dynamic-zone entries stay flat
 * objects, as in v4.
 */

export type V4Converter = (document: Document) => Document;

const mapValue = (value: unknown, convert: V4Converter): unknown =>
  Array.isArray(value) ? value.map((item) => convert(item as Document)) : value === null || value === undefined ? value : convert(value as Document);

const convertFields = (selection: Selection): ((fields: Document) => Document) => {
  const steps: Array<(fields: Document) => void> = [];
  for (const node of populatedInOrder(selection)) {
    const name = node.populatable.name;
    if (node.kind === 'count') {
      steps.push((fields) => {
        fields[name] = { data: { attributes: fields[name] } };
      });
    } else if (node.kind === 'dynamiczone') {
      const byUid = new Map([...node.components].map(([uid, component]) => [uid, convertFields(component)]));
      steps.push((fields) => {
        fields[name] = (fields[name] as Document[]).map((entry) => byUid.get(entry.__component as string)?.(entry) ?? entry);
      });
    } else if (node.kind === 'morph') {
      // items of a polymorphic relation are documents: each wrapped as its own type's
      const byUid = new Map([...node.components].map(([uid, member]) => [uid, createV4Converter(member)]));
      const convert = (item: Document): Document => ({ __type: item.__type, ...(byUid.get(item.__type as string)?.(item) ?? item) });
      steps.push((fields) => {
        fields[name] = { data: mapValue(fields[name], convert) };
      });
    } else if (node.kind === 'component') {
      const convert = convertFields(node.selection);
      steps.push((fields) => {
        fields[name] = mapValue(fields[name], convert);
      });
    } else {
      const convert = createV4Converter(node.selection);
      steps.push((fields) => {
        fields[name] = { data: mapValue(fields[name], convert) };
      });
    }
  }
  return (fields) => {
    for (const step of steps) step(fields);
    return fields;
  };
};

export const createV4Converter = (selection: Selection): V4Converter => {
  const convert = convertFields(selection);
  return ({ id, documentId, ...attributes }) => ({ id, documentId, attributes: convert(attributes) });
};
