import type { Collection } from '../storage/types';
import { storedNameOf, URL_PREFIX, type FileRow } from './file-record';
import { formatOwnersFilter, formatsByStoredName } from './image-formats';
import type { UploadProvider } from './upload-provider';

/**
 * A crash can leave files that no record names: a `.part` still being written, a file stored
 * whose record was never inserted, or image formats made for it. At start, every such file among the
 * provider's settled names is garbage (all of a local folder, which one process owns; what a shared
 * store held for long before). A record names its own file (`url`) and its formats' files
 * (`formats.*.url`).
 */

const BATCH = 500;

/** Removes the stored files that no record names; answers their names. */
export const sweepUploads = async (provider: UploadProvider, records: Collection): Promise<string[]> => {
  const names = await provider.settledNames();
  const removed: string[] = [];
  for (let start = 0; start < names.length; start += BATCH) {
    const batch = names.slice(start, start + BATCH);
    const rows = await records.find({ url: { $in: batch.map((name) => `${URL_PREFIX}${name}`) } }, { projection: ['hash', 'ext'] });
    const named = new Set(rows.map((row) => storedNameOf(row as FileRow)));
    const others = batch.filter((candidate) => !named.has(candidate));
    const formats = others.length > 0 ? formatsByStoredName(await records.find(formatOwnersFilter(others), { projection: ['formats'] })) : new Map();
    for (const name of others.filter((candidate) => !formats.has(candidate))) {
      await provider.remove(name);
      removed.push(name);
    }
  }
  return removed;
};
