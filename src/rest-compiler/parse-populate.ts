import type { OwnerView } from './owner-views';
import { parseFields } from './parse-fields';
import type { RestFilterConverter } from './rest-filters';
import { isUnionNode, type Selection, type ZoneNode } from './selection';
import { createPopulateTree, invalidPopulateKey, invalidPopulateValue } from './populate-tree';
import { createPopulateOptions, isFalse, isTrue } from './populate-options';
import { createZonePopulate } from './zone-populate';
import { isRecord } from '../common/is-record';

/**
 * `populate` in all of Strapi's forms → a Selection: `*`, `a,b`, `populate[0]=a.b`,
 * `populate[a]=true|false|*`, and the object form (`populate-options.ts`). A name used twice is
 * merged. The tree it builds is `populate-tree.ts`'s; below a dynamic zone each path or entry
 * goes to the zone's components it fits (`zone-populate.ts`).
 *
 * Where Strapi 5.54 answers 400 for `populate[zone]=*` and `populate[component]=*` (the second
 * only when the component holds a component), Folio reads `populate[x]=*` as "x, with its own
 * first-level fields populated", the meaning `*` has everywhere else; and where Strapi takes
 * only `*` in `populate[zone][populate]`, Folio takes every form, each part in the components
 * it fits, as a dotted path through the zone is.
 */

const INDEX = /^\d+$/;

/** Each part of a populate value: a dotted path (or `*`) to `onPath`, a `name`: value entry to `onEntry`. */
const eachPart = (input: unknown, path: string[], onPath: (text: string) => void, onEntry: (name: string, value: unknown) => void): void => {
  if (typeof input === 'string') {
    for (const part of input.split(',')) onPath(part.trim());
  } else if (Array.isArray(input)) {
    // qs gives `populate[a][fields]=x&populate=b` as `[{ a: … }, 'b']`: each item is a form of its own.
    for (const item of input) eachPart(item, path, onPath, onEntry);
  } else if (isRecord(input)) {
    for (const [key, value] of Object.entries(input)) {
      // qs keeps `populate[0]=a&populate[b][fields]=x` as one object: indexes hold paths.
      if (INDEX.test(key) && typeof value === 'string') eachPart(value, path, onPath, onEntry);
      else onEntry(key, value);
    }
  } else {
    throw invalidPopulateValue(path, input);
  }
};

export const createPopulateParser = (views: ReadonlyMap<string, OwnerView>, filters: RestFilterConverter, maxDepth: number) => {
  const tree = createPopulateTree(views, maxDepth);
  const zones = createZonePopulate(tree);

  /** The dot-path form: `a.b.c`, or `*`. A relation left out of the surfaces is named for nothing, as Strapi sanitizes it away. */
  const addPath = (selection: Selection, text: string, path: string[]) => {
    if (text === '*') return tree.populateAll(selection, path);
    const [name, ...rest] = text.split('.');
    if (!name) throw invalidPopulateValue(path, text);
    if (selection.view.leftOut.has(name)) return;
    const node = tree.ensureNode(selection, name, path);
    if (rest.length === 0) return;
    const nested = [...path, name];
    if (node.kind === 'dynamiczone') return zones.path(node, rest.join('.'), nested);
    if (isUnionNode(node) || node.kind === 'count') throw invalidPopulateKey(rest[0], nested);
    addPath(node.selection, rest.join('.'), nested);
  };

  /** The entry form: `populate[name]=true|false|*|{ options }`. */
  const addEntry = (selection: Selection, name: string, value: unknown, path: string[]) => {
    if (selection.view.leftOut.has(name)) return;
    if (isFalse(value)) selection.populate.delete(name);
    else if (isTrue(value) || value === null) tree.ensureNode(selection, name, path);
    else if (value === '*') tree.populateEverywhereBelow(tree.ensureNode(selection, name, path), [...path, name]);
    else if (isRecord(value)) applyOptions(selection, name, value, path);
    else throw invalidPopulateValue([...path, name], value);
  };

  function parseInto(selection: Selection, input: unknown, path: string[]): void {
    eachPart(
      input,
      path,
      (text) => addPath(selection, text, path),
      (name, value) => addEntry(selection, name, value, path),
    );
  }

  /** `populate[zone][populate]=…`: each part in the zone's components it fits. */
  function parseIntoZone(zone: ZoneNode, input: unknown, path: string[]): void {
    eachPart(
      input,
      path,
      (text) => zones.path(zone, text, path),
      (name, value) => zones.entry(zone, path, name, (component, componentPath) => addEntry(component, name, value, componentPath)),
    );
  }

  const applyOptions = createPopulateOptions(tree, filters, parseInto, parseIntoZone);

  return {
    parse(view: OwnerView, fields: unknown, populate: unknown): Selection {
      const selection: Selection = { view, fields: parseFields(view, fields), populate: new Map() };
      if (populate !== undefined) parseInto(selection, populate, []);
      return selection;
    },
  };
};
