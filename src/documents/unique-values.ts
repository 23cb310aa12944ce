import type { ContentType } from '../models/types';
import type { Filter, Store, StoredDocument } from '../storage/types';
import { UniqueConstraintError } from '../storage/types';
import { validationErrors, type ValidationIssue } from '../errors/graphql-errors';
import { rowStatus, type Status } from './scope';

/**
 * `unique` attributes: checked before a write for Strapi's error (one issue per attribute), and
 * enforced by the store's unique indexes, whose refusal is reported the same way.
 */

const UNIQUE_MESSAGE = 'This attribute must be unique';

/** A store's unique-index refusal as Strapi's validation error, naming the user's attributes only. */
export const uniqueIssuesOf = (error: UniqueConstraintError): ValidationIssue[] =>
  error.fields.filter((field) => !field.startsWith('_') && field !== 'locale').map((field) => ({ path: [field], message: UNIQUE_MESSAGE, name: 'ValidationError' as const }));

/** `work`, with a unique-index refusal turned into a validation error. */
export const reportingUniqueErrors = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UniqueConstraintError) throw validationErrors(uniqueIssuesOf(error));
    throw error;
  }
};

export const createUniqueCheck = (store: Store) =>
  /** Refuses `values` when another document of the same status (and locale) holds one of its unique values. */
  async (contentType: ContentType, values: StoredDocument, documentId: string, locale: string | undefined, status: Status): Promise<void> => {
    const issues: ValidationIssue[] = [];
    for (const [name, attribute] of Object.entries(contentType.attributes)) {
      const value = values[name];
      if (!('unique' in attribute) || !attribute.unique || value === null || value === undefined) continue;
      const filter: Filter = { [name]: value, _status: rowStatus(contentType, status), documentId: { $ne: documentId } };
      if (contentType.localized) filter.locale = locale;
      if ((await store.collection(contentType.collectionName).countDocuments(filter)) > 0) issues.push({ path: [name], message: UNIQUE_MESSAGE, name: 'ValidationError', value });
    }
    if (issues.length > 0) throw validationErrors(issues);
  };
