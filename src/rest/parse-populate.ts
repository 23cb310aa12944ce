import { badUserInput } from '../errors/graphql-errors';
import { MEDIA_VIEW, type OwnerView, type Populatable } from './owner-views';
import { parseFields } from './parse-fields';
import { parseRestSort } from './rest-sort';
import type { RestFilterConverter } from './rest-filters';
import type { PopulateNode, Selection } from './selection';
import { isRecord } from '../common/is-record';

/**
 * `populate` in all of Strapi's forms → a Selection: `*`, `a,b`, `populate[0]=a.b`,
 * `populate[a]=true|false`, `populate[a][fields|filters|sort|populate|count]`, and
 * `populate[zone][on][<component uid>]` for dynamic zones. A name used twice is merged.
 *
 * Where Strapi 5.54 answers 400 for `populate[zone]=*` and `populate[component]=*` (the second
 * only when the component holds a component), Folio reads `populate[x]=*` as "x, with its own
 * first-level fields populated", the meaning `*` has everywhere else.
 */

type Options = Record<string, unknown>;

const INDEX = /^\d+$/;

const invalidKey = (key: string, path: string[]) =>
  badUserInput(path.length > 0 ? `Invalid key ${key} at ${path.join('.')}` : `Invalid key ${key}`, {
    key,
    path: [...path, key].join('.'),
    source: 'query',
    param: 'populate',
  });

const invalidValue = (path: string[], value: unknown) =>
  badUserInput(`Invalid populate value ${JSON.stringify(value)} at ${path.join('.') || 'populate'}`, {
    key: path[path.length - 1] ?? 'populate',
    path: path.join('.') || null,
    source: 'query',
    param: 'populate',
  });

const isTrue = (value: unknown) => value === true || value === 'true';
const isFalse = (value: unknown) => value === false || value === 'false';

/** The options each kind of populated field takes. */
const optionsOf = (populatable: Populatable): Set<string> => {
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
      return new Set(['on', 'populate']);
  }
};

export const createPopulateParser = (views: ReadonlyMap<string, OwnerView>, filters: RestFilterConverter) => {
  const viewOf = (key: string, path: string[]): OwnerView => {
    const view = views.get(key);
    if (!view) throw invalidKey(path[path.length - 1] ?? key, path.slice(0, -1));
    return view;
  };

  const emptySelection = (view: OwnerView): Selection => ({ view, populate: new Map() });

  const newNode = (populatable: Populatable, path: string[]): PopulateNode => {
    switch (populatable.kind) {
      case 'relation':
      case 'localizations':
        return { kind: populatable.kind, populatable, selection: emptySelection(viewOf(populatable.target, path)) };
      case 'media':
        return { kind: 'media', populatable, selection: emptySelection(viewOf(MEDIA_VIEW, path)) };
      case 'component':
        return { kind: 'component', populatable, selection: emptySelection(viewOf(populatable.component, path)) };
      case 'dynamiczone':
        return {
          kind: 'dynamiczone',
          populatable,
          components: new Map(populatable.components.map((uid) => [uid, emptySelection(viewOf(uid, [...path, uid]))])),
          restricted: false,
        };
    }
  };

  const ensureNode = (selection: Selection, name: string, path: string[]): PopulateNode => {
    const existing = selection.populate.get(name);
    if (existing) return existing;
    const populatable = selection.view.populatable.get(name);
    if (!populatable) throw invalidKey(name, path);
    const node = newNode(populatable, [...path, name]);
    selection.populate.set(name, node);
    return node;
  };

  /** `*`: every populatable field of the selection's view, each with its defaults. */
  const populateAll = (selection: Selection, path: string[]) => {
    for (const name of selection.view.populatable.keys()) ensureNode(selection, name, path);
  };

  const populateEverywhereBelow = (node: PopulateNode, path: string[]) => {
    if (node.kind === 'dynamiczone') for (const [uid, component] of node.components) populateAll(component, [...path, uid]);
    else if (node.kind !== 'count') populateAll(node.selection, path);
  };

  const addPath = (selection: Selection, text: string, path: string[]) => {
    if (text === '*') return populateAll(selection, path);
    const [name, ...rest] = text.split('.');
    if (!name) throw invalidValue(path, text);
    const node = ensureNode(selection, name, path);
    if (rest.length === 0) return;
    const nested = [...path, name];
    if (node.kind === 'dynamiczone' || node.kind === 'count') throw invalidKey(rest[0], nested);
    addPath(node.selection, rest.join('.'), nested);
  };

  const applyOn = (node: PopulateNode & { kind: 'dynamiczone' }, value: unknown, path: string[]) => {
    if (!isRecord(value)) throw invalidValue([...path, 'on'], value);
    if (!node.restricted) {
      node.components.clear();
      node.restricted = true;
    }
    const members = node.populatable.kind === 'dynamiczone' ? node.populatable.components : [];
    for (const [uid, options] of Object.entries(value)) {
      const componentPath = [...path, 'on', uid];
      if (!members.includes(uid)) throw invalidKey(uid, [...path, 'on']);
      const selection = node.components.get(uid) ?? emptySelection(viewOf(uid, componentPath));
      node.components.set(uid, selection);
      if (isTrue(options)) continue;
      if (options === '*') populateAll(selection, componentPath);
      else if (isRecord(options)) applySelectionOptions(selection, options, componentPath);
      else throw invalidValue(componentPath, options);
    }
  };

  /** `fields` and `populate` of a component named in `on`. */
  const applySelectionOptions = (selection: Selection, options: Options, path: string[]) => {
    for (const [key, value] of Object.entries(options)) {
      if (key === 'fields') selection.fields = parseFields(selection.view, value, path.join('.'));
      else if (key === 'populate') parseInto(selection, value, path);
      else throw invalidKey(key, path);
    }
  };

  const applyOptions = (selection: Selection, name: string, options: Options, path: string[]) => {
    const node = ensureNode(selection, name, path);
    const nested = [...path, name];
    if (isTrue(options.count) && node.kind === 'relation' && node.populatable.kind === 'relation' && node.populatable.toMany) {
      selection.populate.set(name, { kind: 'count', populatable: node.populatable });
      return;
    }
    const allowed = optionsOf(node.populatable);
    for (const [key, value] of Object.entries(options)) {
      if (!allowed.has(key)) throw invalidKey(key, nested);
      if (node.kind === 'count') continue;
      if (node.kind === 'dynamiczone') {
        if (key === 'on') applyOn(node, value, nested);
        else if (value === '*') populateEverywhereBelow(node, nested);
        else throw invalidValue([...nested, key], value);
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
          if (!view.filtersInput) throw invalidKey(key, nested);
          node.filters = filters.convert(view.filtersInput, value, 'populate', nested.join('.'));
          break;
        case 'sort':
          node.sort = parseRestSort(value, 'populate');
          break;
        case 'count':
          if (!isFalse(value)) throw invalidValue([...nested, key], value);
          break;
      }
    }
  };

  const addEntry = (selection: Selection, name: string, value: unknown, path: string[]) => {
    if (isFalse(value)) {
      selection.populate.delete(name);
      return;
    }
    if (isTrue(value) || value === null) {
      ensureNode(selection, name, path);
      return;
    }
    if (value === '*') {
      populateEverywhereBelow(ensureNode(selection, name, path), [...path, name]);
      return;
    }
    if (isRecord(value)) {
      applyOptions(selection, name, value, path);
      return;
    }
    throw invalidValue([...path, name], value);
  };

  function parseInto(selection: Selection, input: unknown, path: string[]): void {
    if (typeof input === 'string') {
      for (const part of input.split(',')) addPath(selection, part.trim(), path);
    } else if (Array.isArray(input)) {
      // qs gives `populate[a][fields]=x&populate=b` as `[{ a: … }, 'b']`: each item is a form of its own.
      for (const item of input) parseInto(selection, item, path);
    } else if (isRecord(input)) {
      for (const [key, value] of Object.entries(input)) {
        // qs keeps `populate[0]=a&populate[b][fields]=x` as one object: indexes hold paths.
        if (INDEX.test(key) && typeof value === 'string') parseInto(selection, value, path);
        else addEntry(selection, key, value, path);
      }
    } else {
      throw invalidValue(path, input);
    }
  }

  return {
    parse(view: OwnerView, fields: unknown, populate: unknown): Selection {
      const selection: Selection = { view, fields: parseFields(view, fields), populate: new Map() };
      if (populate !== undefined) parseInto(selection, populate, []);
      return selection;
    },
  };
};
