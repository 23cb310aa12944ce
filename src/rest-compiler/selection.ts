import type { OwnerView, Populatable } from './owner-views';

/**
 * What one REST request shows of a document: its leaf fields and the fields it populates, each
 * with its own selection. Parsed from `fields` and `populate`, then turned into a GraphQL
 * selection set, the variables it needs and the shaper of its result.
 */

export interface Selection {
  view: OwnerView;
  /** leaf fields, identity first; undefined: all of the view's */
  fields?: string[];
  populate: Map<string, PopulateNode>;
}

export type PopulateNode =
  | {
      kind: 'relation' | 'localizations' | 'media' | 'component';
      populatable: Populatable;
      selection: Selection;
      /** `<Type>FiltersInput` value, on to-many fields */
      filters?: Record<string, unknown>;
      sort?: string[];
    }
  | { kind: 'count'; populatable: Populatable }
  | (PerType & { kind: 'dynamiczone' })
  /** a polymorphic relation: its "components" are content-types */
  | (PerType & { kind: 'morph' });

/** A node whose items are each of one of several types, selected per type. */
interface PerType {
  populatable: Populatable;
  /** per component uid; `restricted`: entries of other components are left out (`on`) */
  components: Map<string, Selection>;
  restricted: boolean;
}

export type UnionNode = PopulateNode & { kind: 'dynamiczone' | 'morph' };

export type ZoneNode = PopulateNode & { kind: 'dynamiczone' };

export const isUnionNode = (node: PopulateNode): node is UnionNode => node.kind === 'dynamiczone' || node.kind === 'morph';

/** Populated fields in the view's output order, whatever order the query string named them in. */
export const populatedInOrder = (selection: Selection): PopulateNode[] =>
  [...selection.view.populatable.keys()].flatMap((name) => {
    const node = selection.populate.get(name);
    return node ? [node] : [];
  });

export const leafFieldsOf = (selection: Selection): string[] => selection.fields ?? selection.view.leafFields;
