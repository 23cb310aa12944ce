import DataLoader from 'dataloader';
import type { IResolvers } from '@graphql-tools/utils';
import type { Models, MorphAttribute } from '../models/types';
import type { StoredDocument, StoredValue } from '../storage/types';
import { inheritScope, scopeKey, type Scope } from '../documents/scope';
import { componentTypeName, GENERIC_MORPH, permissionFor, SHARED_NAMES, typeName } from '../sdl/naming';
import { mediaPathsOf } from '../models/media-paths';
import type { FolioContext } from '../context';
import { scopeOfRow, withScope, type ScopedRow } from './row-scope';

/**
 * Polymorphic relations (`morphToOne`, `morphToMany`): each item names its content-type and
 * document (`{ __type, documentId }`). Items are read per content-type and scope, batched per
 * request; an item whose type the caller may not `find`, or whose document is gone, is left out.
 * Each row read remembers its content-type, so `GenericMorph` can name its GraphQL type. A file's
 * `related` documents are read here too, and answer through `GenericMorph` the same way.
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
      context.cost?.spend(rows.length);
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

/** Values at a dotted path, through lists (a zone's entries, a multiple media field's ids). */
const valuesAt = (value: StoredValue | undefined, path: readonly string[]): StoredValue[] => {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item) => valuesAt(item, path));
  if (path.length === 0) return [value];
  return typeof value === 'object' ? valuesAt(value[path[0]], path.slice(1)) : [];
};

/**
 * `UploadFile.related`, as Strapi has it: the documents whose media fields (their own, or their
 * components' and zone entries') hold the file, in their published versions, of every locale, of
 * the content-types the caller may `find`. One store query per content-type holding media, for all
 * the files of a request together.
 */
export const loadFileRelated = (context: FolioContext, file: StoredDocument): Promise<StoredDocument[]> => {
  let loader = context.loaders.get('file-related') as DataLoader<number, StoredDocument[]> | undefined;
  if (!loader) {
    const { models, documents } = context.services;
    loader = new DataLoader<number, StoredDocument[]>(async (fileIds) => {
      const byFile = new Map<number, StoredDocument[]>(fileIds.map((id) => [id, []]));
      for (const contentType of models.contentTypes.values()) {
        const paths = mediaPathsOf(models, contentType.uid);
        if (paths.length === 0 || !context.principal.can(permissionFor(contentType, 'find'))) continue;
        const scope: Scope = { status: 'published', ...(contentType.localized ? { locale: '*' } : {}) };
        const rows = await documents.findMany(contentType, scope, { filter: { $or: paths.map((path) => ({ [path]: { $in: [...fileIds] } })) } });
        for (const row of rows) {
          (context.morphTypes ??= new WeakMap()).set(row, contentType.uid);
          withScope(context, row, { status: 'published', ...(typeof row.locale === 'string' ? { locale: row.locale } : {}) });
          const held = new Set(paths.flatMap((path) => valuesAt(row, path.split('.'))));
          for (const id of fileIds) if (held.has(id)) byFile.get(id)?.push(row);
        }
      }
      return fileIds.map((id) => byFile.get(id) ?? []);
    });
    context.loaders.set('file-related', loader as DataLoader<unknown, unknown, unknown>);
  }
  return typeof file.id === 'number' ? loader.load(file.id) : Promise.resolve([]);
};

/** `GenericMorph`'s type resolution (a row read through a polymorphic relation or a file's `related` is of the type it was read as). */
export const genericMorphResolvers = (models: Models): IResolvers => {
  const typeNames = new Map<string, string>([
    ...[...models.contentTypes.values()].map((contentType): [string, string] => [contentType.uid, typeName(contentType)]),
    ...[...models.components.values()].map((component): [string, string] => [component.uid, componentTypeName(component)]),
  ]);
  return {
    [GENERIC_MORPH]: {
      __resolveType: (row: StoredDocument, context: FolioContext) => typeNames.get(context.morphTypes?.get(row) ?? '') ?? null,
    },
    [SHARED_NAMES.uploadFile]: { related: (file: StoredDocument, _: unknown, context: FolioContext) => loadFileRelated(context, file) },
  };
};
