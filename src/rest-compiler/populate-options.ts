import type { Populatable } from './owner-views';
import { parseFields } from './parse-fields';
import { parseRestSort } from './rest-sort';
import type { RestFilterConverter } from './rest-filters';
import { isUnionNode, type Selection, type UnionNode, type ZoneNode } from './selection';
import { invalidPopulateKey, invalidPopulateValue, type PopulateTree } from './populate-tree';
import { isRecord } from '../common/is-record';

/**
 * The object form of one populated field: `populate[x][fields|filters|sort|populate|count]`, and
 * for a dynamic zone `populate[zone][on][<component uid>]`. Each kind of field takes only the
 * options Strapi gives it.
 */

export type Options = Record<string, unknown>;

/** Parses a nested `populate` value into a selection (the parser's entry, for the recursion). */
export type ParseInto = (selection: Selection, input: unknown, path: string[]) => void;

/** Parses `populate[zone][populate]`'s value into the zone's components, each part where it fits. */
export type ParseIntoZone = (zone: ZoneNode, input: unknown, path: string[]) => void;

export const isTrue = (value: unknown) => value === true || value === 'true';
export const isFalse = (value: unknown) => value === false || value === 'false';

/** The options each kind of populated field takes. */
export const optionsOf = (populatable: Populatable): Set<string> => {
  switch (populatable.kind) {
    case 'relation':
      return new Set(populatable.toMany ? ['fields', 'populate', 'filters', 'sort', 'count'] : ['fields', 'populate']);
    case 'localizations':
      return new Set(['fields', 'populate', 'filters', 'sort']);
    case 'component':
      return new Set(populatable.repeatable ? ['fields', 'populate', 'filters', 'sort'] : ['fields', 'populate']);
    case 'media':
      return new Set(['fields']);
    case 'dynamiczone':
    case 'morph':
      return new Set(['on', 'populate']);
  }
};

export const createPopulateOptions = (tree: PopulateTree, filters: RestFilterConverter, parseInto: ParseInto, parseIntoZone: ParseIntoZone) => {
  /** `fields` and `populate` of a component named in `on`. */
  const applySelectionOptions = (selection: Selection, options: Options, path: string[]) => {
    for (const [key, value] of Object.entries(options)) {
      if (key === 'fields') selection.fields = parseFields(selection.view, value, path.join('.'));
      else if (key === 'populate') parseInto(selection, value, path);
      else throw invalidPopulateKey(key, path);
    }
  };

  /** `on`: the zone keeps only the components it names, each with its own options. */
  const applyOn = (node: UnionNode, value: unknown, path: string[]) => {
    if (!isRecord(value)) throw invalidPopulateValue([...path, 'on'], value);
    if (!node.restricted) {
      node.components.clear();
      node.restricted = true;
    }
    const members = node.populatable.kind === 'dynamiczone' || node.populatable.kind === 'morph' ? node.populatable.components : [];
    for (const [uid, options] of Object.entries(value)) {
      const componentPath = [...path, 'on', uid];
      if (!members.includes(uid)) throw invalidPopulateKey(uid, [...path, 'on']);
      const selection = node.components.get(uid) ?? tree.emptySelection(tree.viewOf(uid, componentPath));
      node.components.set(uid, selection);
      if (isTrue(options)) continue;
      if (options === '*') tree.populateAll(selection, componentPath);
      else if (isRecord(options)) applySelectionOptions(selection, options, componentPath);
      else throw invalidPopulateValue(componentPath, options);
    }
  };

  /** `populate[name][…]` on `selection`. */
  return (selection: Selection, name: string, options: Options, path: string[]) => {
    const node = tree.ensureNode(selection, name, path);
    const nested = [...path, name];
    if (isTrue(options.count) && node.kind === 'relation' && node.populatable.kind === 'relation' && node.populatable.toMany) {
      selection.populate.set(name, { kind: 'count', populatable: node.populatable });
      return;
    }
    const allowed = optionsOf(node.populatable);
    for (const [key, value] of Object.entries(options)) {
      if (!allowed.has(key)) throw invalidPopulateKey(key, nested);
      if (node.kind === 'count') continue;
      if (isUnionNode(node)) {
        if (key === 'on') applyOn(node, value, nested);
        else if (value === '*') tree.populateEverywhereBelow(node, nested);
        else if (node.kind === 'dynamiczone') parseIntoZone(node, value, nested);
        else throw invalidPopulateValue([...nested, key], value);
        continue;
      }
      const view = node.selection.view;
      switch (key) {
        case 'fields':
          node.selection.fields = parseFields(view, value, nested.join('.'));
          break;
        case 'populate':
          parseInto(node.selection, value, nested);
          break;
        case 'filters':
          if (!view.filtersInput) throw invalidPopulateKey(key, nested);
          node.filters = filters.convert(view.filtersInput, value, 'populate', nested.join('.'));
          break;
        case 'sort':
          node.sort = parseRestSort(value, 'populate');
          break;
        case 'count':
          if (!isFalse(value)) throw invalidPopulateValue([...nested, key], value);
          break;
      }
    }
  };
};
