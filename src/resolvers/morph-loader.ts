import DataLoader from 'dataloader';
import type { IResolvers } from '@graphql-tools/utils';
import type { Models, MorphAttribute } from '../models/types';
import { hasMorphRelations } from '../models/morph-relations';
import type { StoredDocument, StoredValue } from '../storage/types';
import { inheritScope, scopeKey, type Scope } from '../documents/scope';
import { componentTypeName, GENERIC_MORPH, permissionFor, typeName } from '../sdl/naming';
import type { FolioContext } from '../context';
import { scopeOfRow, withScope, type ScopedRow } from './row-scope';

/**
 * Polymorphic relations (`morphToOne`, `morphToMany`): each item names its content-type and
 * document (`{ __type, documentId }`). Items are read per content-type and scope, batched per
 * request; an item whose type the caller may not `find`, or whose document is gone, is left out.
 * Each row read remembers its content-type, so `GenericMorph` can name its GraphQL type.
 */

interface MorphItem {
  target: string;
  documentId: string;
}

const itemsOf = (value: StoredValue | undefined): MorphItem[] =>
  (Array.isArray(value) ? value : [value]).flatMap((item) =>
    typeof item === 'object' && item !== null && !Array.isArray(item) && typeof item.__type === 'string' && typeof item.documentId === 'string'
      ? [{ target: item.__type, documentId: item.documentId }]
      : [],
  );

const loaderOf = (context: FolioContext, target: string, scope: Scope): DataLoader<string, StoredDocument | null> => {
  const key = `morph|${target}|${scopeKey(scope)}`;
  let loader = context.loaders.get(key) as DataLoader<string, StoredDocument | null> | undefined;
  if (!loader) {
    const contentType = context.services.models.contentTypes.get(target);
    loader = new DataLoader<string, StoredDocument | null>(async (documentIds) => {
      const rows = contentType ? await context.services.documents.findMany(contentType, scope, { filter: { documentId: { $in: [...documentIds] } } }) : [];
      const byDocumentId = new Map(rows.map((row) => [row.documentId, row]));
      return documentIds.map((documentId) => byDocumentId.get(documentId) ?? null);
    });
    context.loaders.set(key, loader as DataLoader<unknown, unknown, unknown>);
  }
  return loader;
};

/** The rows a polymorphic relation of `parent` names, in its order. */
export const loadMorph = async (context: FolioContext, parent: ScopedRow, name: string, attribute: MorphAttribute): Promise<StoredDocument[] | StoredDocument | null> => {
  const { models, config } = context.services;
  const parentScope = scopeOfRow(context, parent);
  const rows = await Promise.all(
    itemsOf(parent[name]).map(async ({ target, documentId }) => {
      const contentType = models.contentTypes.get(target);
      if (!contentType || !context.principal.can(permissionFor(contentType, 'find'))) return null;
      const scope = inheritScope(contentType, parentScope, config.i18n);
      const row = await loaderOf(context, target, scope).load(documentId);
      if (!row) return null;
      (context.morphTypes ??= new WeakMap()).set(row, target);
      return withScope(context, row, scope);
    }),
  );
  const found = rows.filter((row): row is StoredDocument => row !== null);
  return attribute.relation === 'morphToMany' ? found : (found[0] ?? null);
};

/** `GenericMorph`'s type resolution: a row read through a polymorphic relation is of the type it was read as. */
export const genericMorphResolvers = (models: Models): IResolvers => {
  if (!hasMorphRelations(models)) return {};
  const typeNames = new Map<string, string>([
    ...[...models.contentTypes.values()].map((contentType): [string, string] => [contentType.uid, typeName(contentType)]),
    ...[...models.components.values()].map((component): [string, string] => [component.uid, componentTypeName(component)]),
  ]);
  return {
    [GENERIC_MORPH]: {
      __resolveType: (row: StoredDocument, context: FolioContext) => typeNames.get(context.morphTypes?.get(row) ?? '') ?? null,
    },
  };
};
