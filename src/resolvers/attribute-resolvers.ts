import type { Component, ContentType, Models } from '../models/types';
import type { StoredDocument } from '../storage/types';
import * as names from '../sdl/naming';
import type { GraphQLResolveInfo } from 'graphql';
import type { FolioContext } from '../context';
import { prefetchedAnswer } from './prefetch-relations';
import { loadRelation, type ListArgs } from './relation-loader';
import { loadMedia } from '../media/load-files';
import { scopeOfRow, withScope, type ScopedRow } from './row-scope';
import { componentListResolver } from './component-list';
import { embedsRelations } from '../models/component-relations';
import { loadMorph } from './morph-loader';

type Resolver = (parent: ScopedRow, args: ListArgs, context: FolioContext, info: GraphQLResolveInfo) => unknown;

const isEntry = (value: unknown): value is StoredDocument => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Entries of a component or zone read their relations in their document's scope: they are handed it on the way down. */
const passingScope =
  (resolve: Resolver): Resolver =>
  async (parent, args, context, info) => {
    const value = await resolve(parent, args, context, info);
    const scope = scopeOfRow(context, parent);
    for (const entry of Array.isArray(value) ? value : [value]) if (isEntry(entry)) withScope(context, entry, scope);
    return value;
  };

/** Field resolvers shared by content-types and components: relations, media, components, dynamic zones. */
export const attributeFieldResolvers = (models: Models, owner: ContentType | Component) => {
  const fields: Record<string, unknown> = {};
  for (const [name, attribute] of Object.entries(owner.attributes)) {
    // private attributes are not in the schema: they have no field to resolve
    if (attribute.private === true) continue;
    if (attribute.type === 'relation') {
      const resolve = (parent: ScopedRow, args: ListArgs, context: FolioContext) => loadRelation(context, owner, name, attribute, parent, args);
      fields[name] = (parent: ScopedRow, args: ListArgs, context: FolioContext, info: GraphQLResolveInfo) =>
        prefetchedAnswer(context, info, parent) ?? resolve(parent, args, context);
      if (attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany') {
        fields[names.connectionFieldName(name)] = (parent: ScopedRow, args: ListArgs, context: FolioContext, info: GraphQLResolveInfo) =>
          prefetchedAnswer(context, info, parent) ?? resolve(parent, args, context).then((nodes) => ({ nodes }));
      }
    } else if (attribute.type === 'morph') {
      fields[name] = (parent: ScopedRow, _: unknown, context: FolioContext) => loadMorph(context, parent, name, attribute);
    } else if (attribute.type === 'media') {
      const ids = (parent: StoredDocument): number[] => {
        const value = parent[name];
        return (Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]).filter(
          (id): id is number => typeof id === 'number',
        );
      };
      if (attribute.multiple) {
        fields[name] = (parent: StoredDocument, _: unknown, context: FolioContext) => loadMedia(context, ids(parent));
        fields[names.connectionFieldName(name)] = async (parent: StoredDocument, _: unknown, context: FolioContext) => ({
          nodes: await loadMedia(context, ids(parent)),
        });
      } else {
        fields[name] = async (parent: StoredDocument, _: unknown, context: FolioContext) => (await loadMedia(context, ids(parent)))[0] ?? null;
      }
    } else if (attribute.type === 'component' || attribute.type === 'dynamiczone') {
      const resolve: Resolver =
        attribute.type === 'dynamiczone'
          ? // a zone never written is empty, as REST shows it: `[]`, not null
            (parent) => (Array.isArray(parent[name]) ? parent[name] : [])
          : attribute.repeatable
            ? componentListResolver(models, name, attribute.component)
            : (parent) => parent[name];
      if (embedsRelations(models, attribute)) fields[name] = passingScope(resolve);
      else if (attribute.type === 'dynamiczone' || attribute.repeatable) fields[name] = resolve;
    }
  }
  return fields;
};

