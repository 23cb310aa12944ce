import type { ContentType, Models, RelationAttribute } from '../models/types';
import type { Filter, FindOptions, Store, StoredDocument, StoredValue } from '../storage/types';
import { UniqueConstraintError } from '../storage/types';
import { badUserInput, notFoundError, validationErrors, type ValidationIssue } from '../errors/graphql-errors';
import { createDocumentId } from './document-id';
import { createDataPreparer, type Prepared, type RelationWrite } from './prepare-data';
import { applyRelationChange, referencedIds } from './relation-input';
import { rowStatus, scopeFilter, type LocaleSettings, type Scope, type Status } from './scope';
import { cohortFilter } from './publication-cohort';

/**
 * Documents on top of the store: versions per status and locale, numeric ids, documentIds,
 * relations by reference, components embedded. Every write validates first and writes in one
 * transaction, so a rejected write leaves nothing behind.
 */

/** What a write changed, reported inside the write's transaction so that what records it commits with it. */
export interface DocumentChange {
  action: 'create' | 'update' | 'delete' | 'publish';
  contentType: ContentType;
  row: StoredDocument;
}

export type ChangeRecorder = (change: DocumentChange) => Promise<void>;

export interface DocumentServiceOptions {
  models: Models;
  store: Store;
  i18n: LocaleSettings;
  /** the content events' outbox (webhooks, subscriptions) */
  recordChange?: ChangeRecorder;
  /** how many of these ids name a stored media file (media owns the files) */
  countFiles: (ids: number[]) => Promise<number>;
}

export interface ListQuery {
  filter?: Filter;
  sort?: FindOptions['sort'];
  skip?: number;
  limit?: number;
}

/** Pages must be stable on every engine: ties break on the numeric id (MongoDB leaves their order open). */
const withTiebreak = (sort: ListQuery['sort'] = []): NonNullable<ListQuery['sort']> =>
  sort.some(([field]) => field === 'id') ? sort : [...sort, ['id', 1]];

const COMPONENT_SEQUENCE = 'components';

const isToMany = (attribute: RelationAttribute): boolean => attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany';
const asList = (value: StoredValue | undefined): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : typeof value === 'string' ? [value] : [];

export const createDocumentService = ({ models, store, i18n, recordChange = async () => undefined, countFiles }: DocumentServiceOptions) => {
  const preparer = createDataPreparer({ models, nextComponentId: () => store.nextSequence(COMPONENT_SEQUENCE) });
  const collectionOf = (contentType: ContentType) => store.collection(contentType.collectionName);
  const targetOf = (attribute: RelationAttribute): ContentType | undefined => models.contentTypes.get(attribute.target);

  /** The rows of `scope` (status, locale, publication cohorts) that match `filter`. */
  const withScope = async (contentType: ContentType, scope: Scope, filter?: Filter): Promise<Filter> => {
    const parts = [scopeFilter(contentType, scope), await cohortFilter(collectionOf(contentType), contentType, scope), filter].filter(
      (part): part is Filter => part !== undefined && Object.keys(part).length > 0,
    );
    return parts.length === 1 ? parts[0] : { $and: parts };
  };

  const fail = (issues: ValidationIssue[]): never => {
    throw validationErrors(issues);
  };

  const checkReferences = async (prepared: Prepared, locale: string | undefined): Promise<void> => {
    for (const write of prepared.relations) {
      const target = targetOf(write.attribute);
      const ids = referencedIds(write.change);
      if (!target || ids.length === 0) continue;
      const filter: Filter = { documentId: { $in: ids } };
      if (target.localized && locale !== undefined) filter.locale = locale;
      const found = new Set((await collectionOf(target).find(filter, { projection: ['documentId'] })).map((row) => row.documentId));
      const missing = ids.find((id) => !found.has(id));
      if (missing !== undefined) {
        throw badUserInput(`Document with id "${missing}", locale "${target.localized ? locale : 'null'}" not found`);
      }
    }
    if (prepared.mediaIds.length > 0) {
      const ids = [...new Set(prepared.mediaIds)];
      const found = await countFiles(ids);
      if (found !== ids.length) throw badUserInput(`File not found among ids ${ids.join(', ')}`);
    }
  };

  const checkUnique = async (contentType: ContentType, values: StoredDocument, documentId: string, locale: string | undefined, status: Status) => {
    const issues: ValidationIssue[] = [];
    for (const [name, attribute] of Object.entries(contentType.attributes)) {
      const value = values[name];
      if (!('unique' in attribute) || !attribute.unique || value === null || value === undefined) continue;
      const filter: Filter = { [name]: value, _status: rowStatus(contentType, status), documentId: { $ne: documentId } };
      if (contentType.localized) filter.locale = locale;
      if ((await collectionOf(contentType).countDocuments(filter)) > 0) {
        issues.push({ path: [name], message: 'This attribute must be unique', name: 'ValidationError', value });
      }
    }
    if (issues.length > 0) fail(issues.length === 1 ? [{ ...issues[0] }] : issues);
  };

  /** Owning-side relation values (stored on this document) after applying the writes. */
  const owningValues = (writes: RelationWrite[], current: StoredDocument): StoredDocument => {
    const values: StoredDocument = {};
    for (const { name, attribute, change } of writes) {
      if (attribute.mappedBy) continue;
      const next = applyRelationChange(asList(current[name]), change);
      values[name] = isToMany(attribute) ? next : (next[next.length - 1] ?? null);
    }
    return values;
  };

  /** Writes through the inverse side of a relation land on the owning documents. */
  const writeInverseSides = async (documentId: string, writes: RelationWrite[], locale: string | undefined) => {
    for (const { attribute, change } of writes) {
      const target = targetOf(attribute);
      const field = attribute.mappedBy;
      if (!target || !field) continue;
      const owning = target.attributes[field] as RelationAttribute;
      const targetToMany = isToMany(owning);
      const localeFilter: Filter = target.localized && locale !== undefined ? { locale } : {};
      const currentRows = await collectionOf(target).find({ ...localeFilter, [field]: documentId }, { projection: ['documentId'] });
      const current = [...new Set(currentRows.map((row) => row.documentId as string))];
      const next = new Set(applyRelationChange(current, change));
      const changed = [...current.filter((id) => !next.has(id)), ...[...next].filter((id) => !current.includes(id))];
      if (changed.length === 0) continue;
      const rows = await collectionOf(target).find({ ...localeFilter, documentId: { $in: changed } });
      for (const row of rows) {
        const linked = next.has(row.documentId as string);
        const value: StoredValue = targetToMany
          ? linked
            ? [...asList(row[field]).filter((id) => id !== documentId), documentId]
            : asList(row[field]).filter((id) => id !== documentId)
          : linked
            ? documentId
            : null;
        await collectionOf(target).updateOne({ id: row.id }, { $set: { [field]: value } });
      }
    }
  };

  const prepareOrFail = async (contentType: ContentType, data: Record<string, unknown>, mode: 'create' | 'update', current?: StoredDocument) => {
    const prepared = await preparer.prepare(contentType.attributes, data, mode, current);
    if (prepared.issues.length > 0) fail(prepared.issues);
    return prepared;
  };

  const translateUniqueError = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof UniqueConstraintError) {
        fail(error.fields.filter((field) => !field.startsWith('_') && field !== 'locale').map((field) => ({ path: [field], message: 'This attribute must be unique', name: 'ValidationError' as const })));
      }
      throw error;
    }
  };

  /** Replaces the published version with a copy of the draft (a new numeric id, as Strapi does). */
  const publish = async (contentType: ContentType, draft: StoredDocument, now: string): Promise<StoredDocument> => {
    const collection = collectionOf(contentType);
    const versionFilter: Filter = { documentId: draft.documentId, _status: 'published' };
    if (contentType.localized) versionFilter.locale = draft.locale;
    await collection.deleteMany(versionFilter);
    const published: StoredDocument = { ...draft, id: await store.nextSequence(contentType.collectionName), _status: 'published', publishedAt: now };
    await collection.insertOne(published);
    await recordChange({ action: 'publish', contentType, row: published });
    return published;
  };

  /** Non-localized attributes are shared by every locale of a document: copy changes across. */
  const syncSharedAttributes = async (contentType: ContentType, documentId: string, locale: string | undefined, values: StoredDocument) => {
    if (!contentType.localized) return;
    const shared = Object.fromEntries(Object.entries(values).filter(([name]) => contentType.attributes[name]?.localized === false));
    if (Object.keys(shared).length === 0) return;
    await collectionOf(contentType).updateMany({ documentId, locale: { $ne: locale } }, { $set: shared });
  };

  const sharedValuesOf = (contentType: ContentType, row: StoredDocument): StoredDocument =>
    Object.fromEntries(Object.entries(row).filter(([name]) => contentType.attributes[name]?.localized === false));

  const create = async (contentType: ContentType, data: Record<string, unknown>, scope: Scope, documentId = createDocumentId(), base: StoredDocument = {}) => {
    const prepared = await prepareOrFail(contentType, { ...base, ...data }, 'create');
    return store.transaction(() =>
      translateUniqueError(async () => {
        await checkReferences(prepared, scope.locale);
        const now = new Date().toISOString();
        const values = { ...prepared.values, ...owningValues(prepared.relations, {}) };
        const status = rowStatus(contentType, scope.status);
        await checkUnique(contentType, values, documentId, scope.locale, status);
        const row: StoredDocument = {
          id: await store.nextSequence(contentType.collectionName),
          documentId,
          ...(contentType.localized ? { locale: scope.locale ?? i18n.defaultLocale } : {}),
          _status: contentType.draftAndPublish ? 'draft' : 'published',
          createdAt: now,
          updatedAt: now,
          publishedAt: contentType.draftAndPublish ? null : now,
          ...values,
        };
        await collectionOf(contentType).insertOne(row);
        await writeInverseSides(documentId, prepared.relations, scope.locale);
        await recordChange({ action: 'create', contentType, row });
        return contentType.draftAndPublish && status === 'published' ? publish(contentType, row, now) : row;
      }),
    );
  };

  const versionsOf = (contentType: ContentType, documentId: string) => collectionOf(contentType).find({ documentId }, { sort: [['id', 1]] });

  const update = async (contentType: ContentType, documentId: string, data: Record<string, unknown>, scope: Scope) => {
    const versions = await versionsOf(contentType, documentId);
    if (versions.length === 0) throw notFoundError('Not Found', { documentId });
    const inLocale = versions.filter((row) => !contentType.localized || row.locale === scope.locale);
    if (inLocale.length === 0) {
      // A new localization of an existing document starts from the attributes all locales share.
      const shared = sharedValuesOf(contentType, versions[0]);
      const base = Object.fromEntries(Object.entries(shared).filter(([name]) => !(name in data)));
      return create(contentType, data, scope, documentId, base);
    }
    const current = inLocale.find((row) => row._status === 'draft') ?? inLocale[0];
    const prepared = await prepareOrFail(contentType, data, 'update', current);
    return store.transaction(() =>
      translateUniqueError(async () => {
        await checkReferences(prepared, scope.locale);
        const now = new Date().toISOString();
        const values = { ...prepared.values, ...owningValues(prepared.relations, current) };
        const status = rowStatus(contentType, scope.status);
        const next: StoredDocument = { ...current, ...values, updatedAt: now };
        await checkUnique(contentType, next, documentId, scope.locale, status);
        await collectionOf(contentType).updateOne({ id: current.id }, { $set: { ...values, updatedAt: now } });
        await writeInverseSides(documentId, prepared.relations, scope.locale);
        await syncSharedAttributes(contentType, documentId, scope.locale, prepared.values);
        await recordChange({ action: 'update', contentType, row: next });
        return contentType.draftAndPublish && status === 'published' ? publish(contentType, next, now) : next;
      }),
    );
  };

  const remove = async (contentType: ContentType, documentId: string, locale: string | undefined): Promise<number> => {
    const filter: Filter = { documentId };
    if (contentType.localized && locale !== undefined) filter.locale = locale;
    return store.transaction(async () => {
      const rows = await collectionOf(contentType).find(filter, { sort: [['id', 1]] });
      const deleted = await collectionOf(contentType).deleteMany(filter);
      // One event per locale removed, carrying its draft (the version edited last).
      const byLocale = new Map<StoredValue | undefined, StoredDocument>();
      for (const row of rows) if (!byLocale.has(row.locale) || row._status === 'draft') byLocale.set(row.locale, row);
      for (const row of byLocale.values()) await recordChange({ action: 'delete', contentType, row });
      return deleted;
    });
  };

  const findMany = async (contentType: ContentType, scope: Scope, query: ListQuery = {}) =>
    collectionOf(contentType).find(await withScope(contentType, scope, query.filter), {
      sort: withTiebreak(query.sort),
      skip: query.skip,
      limit: query.limit,
    });

  const count = async (contentType: ContentType, scope: Scope, filter?: Filter) => collectionOf(contentType).countDocuments(await withScope(contentType, scope, filter));

  const findOne = async (contentType: ContentType, documentId: string, scope: Scope) =>
    collectionOf(contentType).findOne(await withScope(contentType, scope, { documentId }));

  const findFirst = async (contentType: ContentType, scope: Scope) => collectionOf(contentType).findOne(await withScope(contentType, scope), { sort: [['id', 1]] });

  /** A single type holds at most one document, in any status and locale: its documentId, if it has one. */
  const singleDocumentId = async (contentType: ContentType): Promise<string | undefined> => {
    const existing = await collectionOf(contentType).findOne({}, { sort: [['id', 1]], projection: ['documentId'] });
    return existing ? (existing.documentId as string) : undefined;
  };

  /** The single type's document: update it, or create it when there is none yet. */
  const upsertSingle = async (contentType: ContentType, data: Record<string, unknown>, scope: Scope) => {
    const documentId = await singleDocumentId(contentType);
    return documentId ? update(contentType, documentId, data, scope) : create(contentType, data, scope);
  };

  return { create, update, remove, findMany, findOne, findFirst, count, singleDocumentId, upsertSingle };
};

export type DocumentService = ReturnType<typeof createDocumentService>;
