import type { Readable } from 'node:stream';
import type { Store } from './types';

/**
 * Named files kept by the store itself, where its engine can (MongoDB's GridFS): every instance on one
 * database reads what any of them stored. Apart from the engine so that using it loads no driver.
 */

export interface StoredFile {
  size: number;
  /** the bytes from `start` to `end` (both included), or all of them */
  stream(range?: { start: number; end: number }): Readable;
}

export interface FileBucket {
  put(name: string, source: Readable): Promise<void>;
  /** null when no file has the name */
  open(name: string): Promise<StoredFile | null>;
  /** a missing name is not an error */
  remove(name: string): Promise<void>;
  /** the names of files stored before `before` */
  namesStoredBefore(before: Date): Promise<string[]>;
}

/** A store that can hold files as well as documents (the MongoDB engine). */
export interface FileBucketStore extends Store {
  fileBucket(name: string): FileBucket;
}

export const hasFileBuckets = (store: Store): store is FileBucketStore => typeof (store as Partial<FileBucketStore>).fileBucket === 'function';

/** The collections of GridFS buckets hold chunks of bytes, not documents: exports and listings leave them out. */
export const isBucketCollection = (name: string): boolean => /\.(files|chunks)$/.test(name);
