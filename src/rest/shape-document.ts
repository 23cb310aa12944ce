import { populatedInOrder, type Selection } from './selection';

/**
 * GraphQL result → Strapi's REST document, in place. The compiled selection already put every
 * key in Strapi's order; what is left is what GraphQL cannot say: numeric ids (ID serialises as
 * a string), dynamic-zone entries named by component uid (`__component`, last), relation counts.
 */

export type Document = Record<string, unknown>;
export type Shaper = (document: Document) => void;

const forEachValue = (value: unknown, shape: Shaper) => {
  if (Array.isArray(value)) for (const item of value) shape(item as Document);
  else if (value !== null && value !== undefined) shape(value as Document);
};

const numericId: Shaper = (document) => {
  if (typeof document.id === 'string') document.id = Number(document.id);
};

export const createShaper = (selection: Selection): Shaper => {
  const steps: Shaper[] = [numericId];
  for (const node of populatedInOrder(selection)) {
    const name = node.populatable.name;
    if (node.kind === 'count') {
      steps.push((document) => {
        const related = document[name];
        document[name] = { count: Array.isArray(related) ? related.length : 0 };
      });
    } else if (node.kind === 'dynamiczone') {
      const byTypeName = new Map([...node.components].map(([uid, component]) => [component.view.typeName, { uid, shape: createShaper(component) }]));
      steps.push((document) => {
        const entries = Array.isArray(document[name]) ? (document[name] as Document[]) : [];
        // Entries of components not asked for (`on`) or no longer in the zone only carry `__typename`: left out.
        document[name] = entries.flatMap((entry) => {
          const { __typename, ...fields } = entry;
          const component = byTypeName.get(__typename as string);
          if (!component) return [];
          component.shape(fields);
          return [{ ...fields, __component: component.uid }];
        });
      });
    } else {
      const shape = createShaper(node.selection);
      steps.push((document) => forEachValue(document[name], shape));
    }
  }
  return (document) => {
    for (const step of steps) step(document);
  };
};
