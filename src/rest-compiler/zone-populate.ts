import { GraphQLError } from 'graphql';
import { invalidPopulateKey, isDepthRefusal, type PopulateTree } from './populate-tree';
import { isUnionNode, type PopulateNode, type Selection, type ZoneNode } from './selection';

/**
 * Below a dynamic zone, `populate` names fields of the zone's components, which differ: in
 * `populate=blocks.image` only `blocks.hero` may have an `image`. As in Strapi, what is named is
 * populated in the components that have it and ignored by the others, and refused (400, naming
 * it at the zone) only when none of the zone's components has it.
 *
 * A dotted path is read as Strapi's query engine reads it: in each component, each segment is
 * populated while the component has it and the rest ignored (`blocks.items.category` populates a
 * component's `items` even where its `category` is text); it is refused unless some component
 * has it whole, as Strapi's check requires. An entry of the object form
 * (`populate[blocks][populate][image][fields]=…`) is applied to a copy of each component's
 * selection: kept where it applies without error, so it means there what it means anywhere else.
 */

const copyNode = (node: PopulateNode): PopulateNode => {
  if (node.kind === 'count') return node;
  if (isUnionNode(node)) return { ...node, components: new Map([...node.components].map(([uid, selection]) => [uid, copySelection(selection)])) };
  return { ...node, selection: copySelection(node.selection) };
};

/** Nodes and maps copied; views, field lists, filters and sorts shared, since parsing replaces them rather than changing them. */
const copySelection = (selection: Selection): Selection => ({
  ...selection,
  populate: new Map([...selection.populate].map(([name, node]) => [name, copyNode(node)])),
});

/** "Not in this component": a populate error, but not the depth limit, which refuses the request wherever it is reached. */
const doesNotFit = (error: unknown): boolean => error instanceof GraphQLError && error.extensions.code === 'BAD_USER_INPUT' && !isDepthRefusal(error);

/** What an entry does in one component's selection, `path` being where that selection stands. */
export type ApplyInComponent = (component: Selection, path: string[]) => void;

export const createZonePopulate = (tree: PopulateTree) => {
  const membersOf = (zone: ZoneNode): string[] => (zone.populatable.kind === 'dynamiczone' ? zone.populatable.components : []);

  /**
   * Each component's selection; a component `on` did not name gets a throwaway one: it still counts
   * for whether the zone has a field at all, and what is applied to it is not answered.
   */
  const selectionsOf = (zone: ZoneNode, path: string[]) =>
    membersOf(zone).map((uid) => {
      const componentPath = [...path, uid];
      const kept = zone.components.get(uid);
      return { uid, componentPath, kept, selection: kept ?? tree.emptySelection(tree.viewOf(uid, componentPath)) };
    });

  /** A path below a zone, in one selection: whether the selection has it whole. */
  const walkPath = (selection: Selection, text: string, path: string[]): boolean => {
    if (text === '*') {
      tree.populateAll(selection, path);
      return true;
    }
    const [name, ...rest] = text.split('.');
    if (selection.view.leftOut.has(name)) return true;
    // a path may end at a scalar of a component (`blocks.title`), as Strapi's check allows: nothing to populate there
    if (!selection.view.populatable.has(name)) return rest.length === 0 && selection.view.leafFields.includes(name);
    const node = tree.ensureNode(selection, name, path);
    if (rest.length === 0) return true;
    const nested = [...path, name];
    if (node.kind === 'dynamiczone') return walkZone(node, rest.join('.'), nested);
    if (isUnionNode(node) || node.kind === 'count') return false;
    return walkPath(node.selection, rest.join('.'), nested);
  };

  const walkZone = (zone: ZoneNode, text: string, path: string[]): boolean => {
    let whole = false;
    for (const { componentPath, selection } of selectionsOf(zone, path)) if (walkPath(selection, text, componentPath)) whole = true;
    return whole;
  };

  return {
    /** `text`, a dotted path, in `zone`'s components (the zone at `path`). */
    path(zone: ZoneNode, text: string, path: string[]): void {
      if (!walkZone(zone, text, path)) throw invalidPopulateKey(text.split('.')[0], path);
    },

    /** An entry naming `key`, applied by `apply` in each of `zone`'s components it fits. */
    entry(zone: ZoneNode, path: string[], key: string, apply: ApplyInComponent): void {
      let fits = false;
      for (const { uid, componentPath, kept, selection } of selectionsOf(zone, path)) {
        const trial = kept ? copySelection(selection) : selection;
        try {
          apply(trial, componentPath);
        } catch (error) {
          if (doesNotFit(error)) continue;
          throw error;
        }
        fits = true;
        if (kept) zone.components.set(uid, trial);
      }
      if (!fits) throw invalidPopulateKey(key, path);
    },
  };
};
