import type { ContentType, Models } from '../models/types';
import type { Store, StoredDocument, StoredValue, Filter } from '../storage/types';
import { notFoundError, validationErrors } from '../errors/graphql-errors';
import { createDocumentId } from './document-id';
import { createDataPreparer } from './prepare-data';
import type { EntityValidator } from './entity-validator';
import { createDraftReadBack } from './draft-read-back';
import { rowStatus, type LocaleSettings, type Scope } from './scope';
import { createRelationWrites, owningValues } from './relation-writes';
import { createDocumentReads } from './document-reads';
import { createUniqueCheck, reportingUniqueErrors } from './unique-values';
import { createDocumentVersions, sharedValuesOf } from './document-versions';
import type { ChangeRecorder } from './document-change';

/**
 * Documents on top of the store: versions per status and locale, numeric ids, documentIds,
 * relations by reference, components embedded. Every write validates first and writes in one
 * transaction, so a rejected write leaves nothing behind. Reads, relation writes, unique checks
 * and versions are each their own module; this one composes the writes.
 */

export interface DocumentServiceOptions {
  models: Models;
  store: Store;
  i18n: LocaleSettings;
  /** the content events' outbox (webhooks, subscriptions) */
  recordChange?: ChangeRecorder;
  /** how many of these ids name a stored media file (media owns the files) */
  countFiles: (ids: number[]) => Promise<number>;
}

const COMPONENT_SEQUENCE = 'components';

export const createDocumentService = ({ models, store, i18n, recordChange = async () => undefined, countFiles }: DocumentServiceOptions) => {
  const preparer = createDataPreparer({
    models,
    nextComponentId: () => store.nextSequence(COMPONENT_SEQUENCE),
    documentIdsOf: async (target, ids) => {
      const contentType = models.contentTypes.get(target);
      const rows = contentType ? await store.collection(contentType.collectionName).find({ id: { $in: ids } }, { projection: ['id', 'documentId'] }) : [];
      return new Map(rows.map((row) => [row.id as number, row.documentId as string]));
    },
  });
  const collectionOf = (contentType: ContentType) => store.collection(contentType.collectionName);
  const relations = createRelationWrites({ models, store, countFiles });
  const reads = createDocumentReads(store);
  const checkUnique = createUniqueCheck(store);
  const versions = createDocumentVersions(store, recordChange);
  // Loaded by the first write's validation, not at start: yup and lodash are ~40 ms of every start, which no read needs.
  let validator: EntityValidator | undefined;
  const validatorOf = (): EntityValidator => (validator ??= (require('./entity-validator') as typeof import('./entity-validator')).createEntityValidator(models));
  const readBack = createDraftReadBack(models);

  /**
   * The attribute options a write's data must meet before anything else is read: as Strapi writes a
   * type with draft & publish, as a draft (the upper bounds alone), any other in full.
   */
  const validateInput = (contentType: ContentType, data: Record<string, unknown>, mode: 'create' | 'update'): void => {
    const issues = validatorOf().validate(contentType.attributes, data, { kind: mode === 'create' ? 'creation' : 'update', isDraft: contentType.draftAndPublish });
    if (issues.length > 0) throw validationErrors(issues);
  };

  /**
   * The draft a write leaves, read back: Strapi publishes it only once it meets every option (so a
   * required value left out is refused as the `null` it reads back as); a draft kept as a draft
   * must still hold its required values (see `draftKeepsRequired`).
   */
  const validateDraft = (contentType: ContentType, draft: Record<string, unknown>, scope: Scope): void => {
    const publishes = rowStatus(contentType, scope.status) === 'published';
    const options = publishes ? { kind: 'creation' as const, isDraft: false } : { kind: 'creation' as const, isDraft: true, draftKeepsRequired: true };
    const issues = validatorOf().validate(contentType.attributes, readBack(contentType.attributes, draft), options);
    if (issues.length > 0) throw validationErrors(issues);
  };

  const prepareOrFail = async (contentType: ContentType, data: Record<string, unknown>, mode: 'create' | 'update', scope: Scope, current?: StoredDocument) => {
    validateInput(contentType, data, mode);
    const prepared = await preparer.prepare(contentType.attributes, data, mode, current);
    if (prepared.issues.length > 0) throw validationErrors(prepared.issues);
    if (contentType.draftAndPublish) validateDraft(contentType, { ...current, ...data }, scope);
    return prepared;
  };

  const create = async (contentType: ContentType, data: Record<string, unknown>, scope: Scope, documentId = createDocumentId(), base: StoredDocument = {}) => {
    const prepared = await prepareOrFail(contentType, { ...base, ...data }, 'create', scope);
    return store.transaction(() =>
      reportingUniqueErrors(async () => {
        await relations.checkReferences(prepared, scope.locale);
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
        await relations.writeInverseSides(documentId, prepared.relations, scope.locale);
        await recordChange({ action: 'create', contentType, row });
        return contentType.draftAndPublish && status === 'published' ? versions.publish(contentType, row, now) : row;
      }),
    );
  };

  const versionsOf = (contentType: ContentType, documentId: string) => collectionOf(contentType).find({ documentId }, { sort: [['id', 1]] });

  const update = async (contentType: ContentType, documentId: string, data: Record<string, unknown>, scope: Scope) => {
    const existing = await versionsOf(contentType, documentId);
    if (existing.length === 0) throw notFoundError('Not Found', { documentId });
    const inLocale = existing.filter((row) => !contentType.localized || row.locale === scope.locale);
    if (inLocale.length === 0) {
      // A new localization of an existing document starts from the attributes all locales share.
      const shared = sharedValuesOf(contentType, existing[0]);
      const base = Object.fromEntries(Object.entries(shared).filter(([name]) => !(name in data)));
      return create(contentType, data, scope, documentId, base);
    }
    const current = inLocale.find((row) => row._status === 'draft') ?? inLocale[0];
    const prepared = await prepareOrFail(contentType, data, 'update', scope, current);
    return store.transaction(() =>
      reportingUniqueErrors(async () => {
        await relations.checkReferences(prepared, scope.locale);
        const now = new Date().toISOString();
        const values = { ...prepared.values, ...owningValues(prepared.relations, current) };
        const status = rowStatus(contentType, scope.status);
        const next: StoredDocument = { ...current, ...values, updatedAt: now };
        await checkUnique(contentType, next, documentId, scope.locale, status);
        await collectionOf(contentType).updateOne({ id: current.id }, { $set: { ...values, updatedAt: now } });
        await relations.writeInverseSides(documentId, prepared.relations, scope.locale);
        await versions.syncSharedAttributes(contentType, documentId, scope.locale, prepared.values);
        await recordChange({ action: 'update', contentType, row: next });
        return contentType.draftAndPublish && status === 'published' ? versions.publish(contentType, next, now) : next;
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

  /** The single type's document: update it, or create it when there is none yet. */
  const upsertSingle = async (contentType: ContentType, data: Record<string, unknown>, scope: Scope) => {
    const documentId = await reads.singleDocumentId(contentType);
    return documentId ? update(contentType, documentId, data, scope) : create(contentType, data, scope);
  };

  return { create, update, remove, upsertSingle, validateInput, ...reads };
};

export type DocumentService = ReturnType<typeof createDocumentService>;
