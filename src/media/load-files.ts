import DataLoader from 'dataloader';
import type { FolioContext } from '../context';
import type { Store, StoredDocument } from '../storage/types';
import { FILES_COLLECTION } from './file-record';

/** Media attributes hold numeric file ids; files are loaded by id in one query per request batch. */
export const loadMedia = async (context: FolioContext, ids: number[]): Promise<StoredDocument[]> => {
  let loader = context.loaders.get('media') as DataLoader<number, StoredDocument | null, number> | undefined;
  if (!loader) {
    loader = new DataLoader<number, StoredDocument | null, number>(async (keys) => {
      const rows = await context.services.store.collection(FILES_COLLECTION).find({ id: { $in: [...keys] } });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return keys.map((key) => byId.get(key) ?? null);
    });
    context.loaders.set('media', loader as DataLoader<unknown, unknown, unknown>);
  }
  const files = await loader.loadMany(ids);
  return files.filter((file): file is StoredDocument => file !== null && !(file instanceof Error));
};

/** How many of `ids` name a stored file: a write that references media checks them all exist. */
export const countFiles = (store: Store, ids: number[]): Promise<number> => store.collection(FILES_COLLECTION).countDocuments({ id: { $in: ids } });
