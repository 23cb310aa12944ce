import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { UploadConfig } from '../config/types';
import type { Store } from '../storage/types';
import { hasFileBuckets, type FileBucket } from '../storage/file-buckets';
import { createUploadFolder, type OpenFile, type UploadFolder } from './upload-folder';

/**
 * Where uploaded files are kept (`upload.config.provider`). Every upload is received, checked and
 * resized in the provider's `workspace`, a local folder, then handed over with `store`; the files
 * are then read, ranged, and removed by stored name (`<hash><ext>`) only.
 * - `local`: the workspace is the upload folder itself, so storing costs nothing; one instance's files.
 * - `gridfs`: the MongoDB database's GridFS bucket `folio_uploads`, read by every instance on that
 *   database; the workspace is a temporary folder of this process, emptied as files are stored.
 */

export interface UploadProvider {
  /** what the file records say in `provider` */
  readonly name: UploadConfig['provider'];
  readonly workspace: UploadFolder;
  /** where an operator finds the files (for messages) */
  readonly location: string;
  start(): Promise<void>;
  /** makes the workspace file `storedName` the stored file of that name, replacing one stored before */
  store(storedName: string): Promise<void>;
  /** null when nothing is stored under the name */
  read(storedName: string): Promise<OpenFile | null>;
  /** the stored file and any workspace copy; a missing one is not an error */
  remove(storedName: string): Promise<void>;
  /** stored names no upload in progress can be about to name in a record: candidates for the start-up sweep */
  settledNames(): Promise<string[]>;
  stop(): Promise<void>;
}

export const UPLOADS_BUCKET = 'folio_uploads';

/** An upload is stored and then recorded within moments; a file stored this long ago without a record never will be. */
const SETTLED_AFTER_MS = 60 * 60 * 1000;

export const createLocalProvider = (dataDir: string, directory: string): UploadProvider => {
  const folder = createUploadFolder(resolve(dataDir, directory));
  return {
    name: 'local',
    workspace: folder,
    location: folder.directory,
    start: () => folder.ensureDirectory(),
    store: async () => undefined,
    read: (storedName) => folder.read(storedName),
    remove: (storedName) => folder.remove(storedName),
    // one process owns the folder, and no request runs before the sweep
    settledNames: () => folder.list(),
    stop: async () => undefined,
  };
};

export const createGridfsProvider = (bucket: FileBucket): UploadProvider => {
  let folder: UploadFolder | undefined;
  const workspace = (): UploadFolder => {
    if (!folder) throw new Error('the gridfs upload provider is used before it started');
    return folder;
  };
  return {
    name: 'gridfs',
    get workspace() {
      return workspace();
    },
    location: `the GridFS bucket ${UPLOADS_BUCKET} of the database`,
    async start() {
      folder = createUploadFolder(await mkdtemp(join(tmpdir(), 'folio-uploads-')));
    },
    async store(storedName) {
      await bucket.put(storedName, createReadStream(workspace().pathOf(storedName)));
      await workspace().remove(storedName);
    },
    async read(storedName) {
      const file = await bucket.open(storedName);
      return file && { ...file, close: async () => undefined };
    },
    async remove(storedName) {
      await workspace().remove(storedName);
      await bucket.remove(storedName);
    },
    settledNames: () => bucket.namesStoredBefore(new Date(Date.now() - SETTLED_AFTER_MS)),
    async stop() {
      if (folder) await rm(folder.directory, { recursive: true, force: true });
    },
  };
};

/** The provider `upload.config.provider` names (config checks that `gridfs` comes with MongoDB). */
export const createUploadProvider = (config: UploadConfig, store: Store, dataDir: string): UploadProvider => {
  if (config.provider === 'local') return createLocalProvider(dataDir, config.directory);
  if (!hasFileBuckets(store)) throw new Error('upload.config.provider "gridfs" needs the mongodb database client');
  return createGridfsProvider(store.fileBucket(UPLOADS_BUCKET));
};
