import type { Attribute, Models } from './types';

/**
 * Which components hold a relation, themselves or in a component they nest: their entries carry
 * the scope their document was read in, and look-ahead loading walks into them. Worked out once
 * per set of models.
 */

const known = new WeakMap<Models, Set<string>>();

const holdingRelations = (models: Models): Set<string> => {
  const holding = new Set<string>();
  const visiting = new Set<string>();
  const holds = (uid: string): boolean => {
    if (holding.has(uid)) return true;
    const component = models.components.get(uid);
    // a cycle is a model problem reported at load; here it only must not recurse forever
    if (!component || visiting.has(uid)) return false;
    visiting.add(uid);
    const found = Object.values(component.attributes).some((attribute) => attribute.type === 'relation' || embeddedUids(attribute).some(holds));
    visiting.delete(uid);
    if (found) holding.add(uid);
    return found;
  };
  for (const uid of models.components.keys()) holds(uid);
  return holding;
};

/** The components an attribute embeds: its component, or a zone's. */
export const embeddedUids = (attribute: Attribute): string[] =>
  attribute.type === 'component' ? [attribute.component] : attribute.type === 'dynamiczone' ? attribute.components : [];

/** Whether the entries of `attribute` (a component or dynamic zone) may hold relations. */
export const embedsRelations = (models: Models, attribute: Attribute): boolean => {
  let holding = known.get(models);
  if (!holding) known.set(models, (holding = holdingRelations(models)));
  const set = holding;
  return embeddedUids(attribute).some((uid) => set.has(uid));
};
