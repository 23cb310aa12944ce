import type { StoredDocument } from '../storage/types';
import { FILE_CONTENT_TYPE } from './file-model';

/**
 * A media file as stored in the `files` collection. The row holds exactly the fields of Strapi's
 * file record, in Strapi's key order (exchange 85), so whoever renders it (upload routes, REST
 * populate, GraphQL) shows it as is once internal `_` fields are left out.
 */

export const FILES_COLLECTION = FILE_CONTENT_TYPE.collectionName;
export const FILES_SEQUENCE = 'files';
export const URL_PREFIX = '/uploads/';

/** One entry of `formats`: Strapi's keys, in Strapi's order. */
export type ImageFormat = {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  path: null;
  width: number;
  height: number;
  /** kilobytes, as the original's `size` */
  size: number;
  sizeInBytes: number;
  url: string;
};

export type ImageFormats = Record<string, ImageFormat>;

export interface FileRow extends StoredDocument {
  id: number;
  documentId: string;
  name: string;
  alternativeText: string | null;
  caption: string | null;
  focalPoint: null;
  width: number | null;
  height: number | null;
  /** the responsive versions of an image, null for other files and small images */
  formats: ImageFormats | null;
  hash: string;
  ext: string;
  mime: string;
  /** kilobytes, two decimals, as Strapi reports it */
  size: number;
  url: string;
  previewUrl: null;
  provider: string;
  provider_metadata: null;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
}

/** Strapi's `bytesToKbytes`: 1000 bytes to the kilobyte, rounded to two decimals. */
export const bytesToKilobytes = (bytes: number): number => Math.round((bytes / 1000) * 100) / 100;

export const storedNameOf = (row: Pick<FileRow, 'hash' | 'ext'>): string => `${row.hash}${row.ext}`;

/** The record as the upload routes answer it: no internal fields, and `isUrlSigned` (local files never are). */
export const toUploadResponse = (row: Record<string, unknown>): Record<string, unknown> => ({
  ...Object.fromEntries(Object.entries(row).filter(([key]) => !key.startsWith('_'))),
  isUrlSigned: false,
});
