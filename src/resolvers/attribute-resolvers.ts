import type { Component, ContentType, Models } from '../models/types';
import type { StoredDocument } from '../storage/types';
import * as names from '../sdl/naming';
import type { GraphQLResolveInfo } from 'graphql';
import type { FolioContext } from '../context';
import { prefetchedAnswer } from './prefetch-relations';
import { loadRelation, type ListArgs } from './relation-loader';
import { loadMedia } from '../media/load-files';
import type { ScopedRow } from './row-scope';
import { componentListResolver } from './component-list';

/** Field resolvers shared by content-types and components: relations, media, repeatable components, dynamic zones. */
export const attributeFieldResolvers = (models: Models, owner: ContentType | Component, ownerContentType?: ContentType) => {
  const fields: Record<string, unknown> = {};
  for (const [name, attribute] of Object.entries(owner.attributes)) {
    // private attributes are not in the schema: they have no field to resolve
    if (attribute.private === true) continue;
    if (attribute.type === 'relation' && ownerContentType) {
      const resolve = (parent: ScopedRow, args: ListArgs, context: FolioContext) => loadRelation(context, ownerContentType, name, attribute, parent, args);
      fields[name] = (parent: ScopedRow, args: ListArgs, context: FolioContext, info: GraphQLResolveInfo) =>
        prefetchedAnswer(context, info, parent) ?? resolve(parent, args, context);
      if (attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany') {
        fields[names.connectionFieldName(name)] = (parent: ScopedRow, args: ListArgs, context: FolioContext, info: GraphQLResolveInfo) =>
          prefetchedAnswer(context, info, parent) ?? resolve(parent, args, context).then((nodes) => ({ nodes }));
      }
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
    } else if (attribute.type === 'component' && attribute.repeatable) {
      fields[name] = componentListResolver(models, name, attribute.component);
    } else if (attribute.type === 'dynamiczone') {
      // a zone never written is empty, as REST shows it: `[]`, not null
      fields[name] = (parent: StoredDocument) => (Array.isArray(parent[name]) ? parent[name] : []);
    }
  }
  return fields;
};

