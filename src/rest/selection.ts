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
  | {
      kind: 'dynamiczone';
      populatable: Populatable;
      /** per component uid; `restricted`: entries of other components are left out (`on`) */
      components: Map<string, Selection>;
      restricted: boolean;
    };

/** Populated fields in the view's output order, whatever order the query string named them in. */
export const populatedInOrder = (selection: Selection): PopulateNode[] =>
  [...selection.view.populatable.keys()].flatMap((name) => {
    const node = selection.populate.get(name);
    return node ? [node] : [];
  });

export const leafFieldsOf = (selection: Selection): string[] => selection.fields ?? selection.view.leafFields;
