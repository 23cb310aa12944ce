import { createReadStream, createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { loadConfig } from '../config/load-config';
import { openStore } from '../storage/open-store';
import { exportStore } from '../transfer/export-store';
import { importStore } from '../transfer/import-store';
import type { Store } from '../storage/types';
import { createUploadProvider, UPLOADS_BUCKET, type UploadProvider } from '../media/upload-provider';
import { FILES_COLLECTION, storedNameOf } from '../media/file-record';

/**
 * `folio export` / `folio import`: every collection as newline-delimited JSON, so a project can
 * move between the embedded store and MongoDB. Data goes to stdout (or --file); progress to stderr.
 */

export interface TransferFlags {
  configDir: string;
  dataDir: string;
  file?: string;
  replace?: boolean;
}

const progress = () => {
  let last = '';
  return (collection: string, count: number) => {
    const line = `${collection}: ${count}`;
    if (line !== last) process.stderr.write(`${line}\n`);
    last = line;
  };
};

const withStore = async <T>(flags: TransferFlags, work: (store: Store, uploads: UploadProvider) => Promise<T>): Promise<T> => {
  const config = loadConfig({ configDir: flags.configDir, env: process.env });
  const store = await openStore(config.database, flags.dataDir);
  try {
    return await work(store, createUploadProvider(config.upload, store, flags.dataDir));
  } finally {
    await store.close();
  }
};

const isStored = async (uploads: UploadProvider, storedName: string): Promise<boolean> => {
  const opened = await uploads.read(storedName).catch(() => null);
  await opened?.close();
  return opened !== null;
};

/**
 * The export holds the file records, not the files: said on every transfer that has some, with the
 * folder to copy, rather than left for a broken image to tell. On import, the records whose file is
 * not in this instance's upload folder are counted.
 */
const sayWhatFilesNeed = async (store: Store, uploads: UploadProvider, importing: boolean) => {
  const records = await store.collection(FILES_COLLECTION).find({}, { projection: ['hash', 'ext'] });
  if (records.length === 0) return;
  if (!importing) {
    const where =
      uploads.name === 'local'
        ? `copy ${uploads.location} to the same place under the new instance's data folder`
        : `they stay in ${uploads.location} (mongodump/mongorestore ${UPLOADS_BUCKET}.files and ${UPLOADS_BUCKET}.chunks to move them)`;
    process.stderr.write(`note: the ${records.length} uploaded file(s) are not in the export, only their records: ${where}\n`);
    return;
  }
  let missing = 0;
  for (const record of records) if (!(await isStored(uploads, storedNameOf({ hash: String(record.hash), ext: String(record.ext) })))) missing += 1;
  if (missing > 0) process.stderr.write(`note: ${missing} of ${records.length} file record(s) name files missing from ${uploads.location}: copy them from the old instance's uploads\n`);
};

export const exportCommand = (flags: TransferFlags) =>
  withStore(flags, async (store, uploads) => {
    const output = flags.file ? createWriteStream(flags.file) : process.stdout;
    const summary = await exportStore(store, output, progress());
    if (flags.file) {
      output.end();
      await finished(output);
    }
    process.stderr.write(`exported ${summary.documents} documents from ${summary.collections} collections\n`);
    await sayWhatFilesNeed(store, uploads, false);
  });

export const importCommand = (flags: TransferFlags) =>
  withStore(flags, async (store, uploads) => {
    const input = flags.file ? createReadStream(flags.file) : process.stdin;
    const summary = await importStore(store, input, progress(), { replace: flags.replace });
    process.stderr.write(`imported ${summary.documents} documents into ${summary.collections} collections\n`);
    await sayWhatFilesNeed(store, uploads, true);
  });
