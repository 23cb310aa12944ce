import {
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  type Document,
} from 'mongodb';
import { StoreUnavailableError, UniqueConstraintError } from '../types';

const DUPLICATE_KEY = 11000;
const INDEX_OPTIONS_CONFLICT = 85;
const INDEX_KEY_SPECS_CONFLICT = 86;

export function isDuplicateKeyError(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
}

/** The server's report of the violated key, from a plain or a bulk (insertMany) write error. */
function duplicateKeyDetails(error: MongoServerError): Document | null {
  // a bulk write keeps only the message of each write error: the index name is in it
  const writeErrors: Array<{ code: number; errmsg?: string }> = [error.writeErrors ?? []].flat();
  const duplicate = writeErrors.find((writeError) => writeError.code === DUPLICATE_KEY);
  if (duplicate) return { errmsg: duplicate.errmsg };
  return error.code === DUPLICATE_KEY ? error : null;
}

function violatedFields(details: Document, indexFields: ReadonlyMap<string, string[]>): string[] {
  if (details.keyPattern && typeof details.keyPattern === 'object') return Object.keys(details.keyPattern as Document);
  const message = String(details.errmsg ?? details.message ?? '');
  const indexName = /index: (\S+) dup key/.exec(message)?.[1];
  return (indexName && indexFields.get(indexName)) || [];
}

/** No server to ask, or the connection to it broke: the driver's own retry is done, the caller can only wait. */
function isUnreachable(error: unknown): boolean {
  return error instanceof MongoServerSelectionError || error instanceof MongoNetworkError || error instanceof MongoTopologyClosedError || error instanceof MongoNotConnectedError;
}

/** Outside a transaction (whose retry needs the driver's own errors): an unreachable server as StoreUnavailableError. */
export function toUnavailable(error: unknown): unknown {
  return isUnreachable(error) ? new StoreUnavailableError({ cause: error }) : error;
}

/**
 * MongoDB's errors in the storage interface's terms: a duplicate key (E11000) becomes UniqueConstraintError,
 * a conflicting index definition a plain message; anything else passes through unchanged (so that the
 * driver's transaction retry still sees its labels).
 */
export function toStoreError(error: unknown, collection: string, indexFields: ReadonlyMap<string, string[]>): unknown {
  if (!(error instanceof MongoServerError)) return error;
  const duplicate = duplicateKeyDetails(error);
  if (duplicate) return new UniqueConstraintError(collection, violatedFields(duplicate, indexFields));
  if (error.code === INDEX_OPTIONS_CONFLICT || error.code === INDEX_KEY_SPECS_CONFLICT) {
    return new Error(`index on ${collection} conflicts with an existing index: ${error.message}`, { cause: error });
  }
  return error;
}
