import { GraphQLError } from 'graphql';
import { badUserInput } from '../errors/graphql-errors';
import { isRecord } from '../common/is-record';
import { MEDIA_VIEW, type OwnerView, type Populatable } from './owner-views';
import { isUnionNode, type PopulateNode, type Selection } from './selection';

/**
 * The Selection tree `populate` builds: a node per populated field, made from its owner's view,
 * `*` expanded to every populatable field, and the errors that name where in `populate` a key
 * or value is wrong.
 */

export const invalidPopulateKey = (key: string, path: string[]) =>
  badUserInput(path.length > 0 ? `Invalid key ${key} at ${path.join('.')}` : `Invalid key ${key}`, {
    key,
    path: [...path, key].join('.'),
    source: 'query',
    param: 'populate',
  });

export const invalidPopulateValue = (path: string[], value: unknown) =>
  badUserInput(`Invalid populate value ${JSON.stringify(value)} at ${path.join('.') || 'populate'}`, {
    key: path[path.length - 1] ?? 'populate',
    path: path.join('.') || null,
    source: 'query',
    param: 'populate',
  });

/** The refusal of a populate nesting deeper than `maxDepth`: a limit, not a key that is wrong where it stands. */
const populateTooDeep = (name: string, path: string[], maxDepth: number) =>
  badUserInput(`populate nests deeper than ${maxDepth} levels at ${[...path, name].join('.')}`, {
    key: name,
    path: [...path, name].join('.'),
    source: 'query',
    param: 'populate',
    maxPopulateDepth: maxDepth,
  });

export const isDepthRefusal = (error: unknown): boolean =>
  error instanceof GraphQLError && isRecord(error.extensions.error) && isRecord(error.extensions.error.details) && 'maxPopulateDepth' in error.extensions.error.details;

/** How deep a node at `path` sits: every populated field and zone component is a level, `on` is not. */
const depthAt = (path: string[]): number => path.filter((segment) => segment !== 'on').length + 1;

/** `maxDepth`: `api.rest.maxPopulateDepth`, REST's own bound on how far `populate` reaches. */
export const createPopulateTree = (views: ReadonlyMap<string, OwnerView>, maxDepth: number) => {
  const viewOf = (key: string, path: string[]): OwnerView => {
    const view = views.get(key);
    if (!view) throw invalidPopulateKey(path[path.length - 1] ?? key, path.slice(0, -1));
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
      case 'morph':
        return {
          kind: populatable.kind,
          populatable,
          components: new Map(populatable.components.map((uid) => [uid, emptySelection(viewOf(uid, [...path, uid]))])),
          restricted: false,
        };
    }
  };

  /** The node of `name` in `selection`, made (with its defaults) if `populate` had not named it yet. */
  const ensureNode = (selection: Selection, name: string, path: string[]): PopulateNode => {
    const existing = selection.populate.get(name);
    if (existing) return existing;
    const populatable = selection.view.populatable.get(name);
    if (!populatable) throw invalidPopulateKey(name, path);
    if (depthAt(path) > maxDepth) throw populateTooDeep(name, path, maxDepth);
    const node = newNode(populatable, [...path, name]);
    selection.populate.set(name, node);
    return node;
  };

  /** `*`: every populatable field of the selection's view, each with its defaults. */
  const populateAll = (selection: Selection, path: string[]) => {
    for (const name of selection.view.populatable.keys()) ensureNode(selection, name, path);
  };

  /** `populate[x]=*`: x, with its own first-level fields populated (in each component of a zone). */
  const populateEverywhereBelow = (node: PopulateNode, path: string[]) => {
    if (isUnionNode(node)) for (const [uid, component] of node.components) populateAll(component, [...path, uid]);
    else if (node.kind !== 'count') populateAll(node.selection, path);
  };

  return { viewOf, emptySelection, ensureNode, populateAll, populateEverywhereBelow };
};

export type PopulateTree = ReturnType<typeof createPopulateTree>;
