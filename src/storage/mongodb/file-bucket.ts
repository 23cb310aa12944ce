import { pipeline } from 'node:stream/promises';
import { GridFSBucket, MongoRuntimeError, type Db, type ObjectId } from 'mongodb';
import type { FileBucket } from '../file-buckets';
import { toUnavailable } from './mongodb-errors';

/**
 * Named files in the database's GridFS (`<bucket>.files` and `<bucket>.chunks`): every instance on one
 * database reads what any of them stored. A name holds one file: storing it again uploads the new
 * content first and then removes the older ones, so a reader never finds the name empty.
 */

const unavailableOr = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    throw toUnavailable(error);
  }
};

export const createFileBucket = (db: Db, bucketName: string): FileBucket => {
  const bucket = new GridFSBucket(db, { bucketName });
  const idsOf = async (name: string): Promise<ObjectId[]> => (await bucket.find({ filename: name }, { projection: { _id: 1 } }).toArray()).map((file) => file._id);
  // another instance removing the same file first is no failure
  const deleteFile = (id: ObjectId) =>
    bucket.delete(id).catch((error: unknown) => {
      if (!(error instanceof MongoRuntimeError && error.message.startsWith('File not found'))) throw error;
    });
  const newest = (name: string) => bucket.find({ filename: name }).sort({ uploadDate: -1, _id: -1 }).limit(1).next();

  return {
    put: (name, source) =>
      unavailableOr(async () => {
        const upload = bucket.openUploadStream(name);
        await pipeline(source, upload);
        for (const id of await idsOf(name)) if (!id.equals(upload.id)) await deleteFile(id);
      }),
    open: (name) =>
      unavailableOr(async () => {
        const file = await newest(name);
        if (!file) return null;
        return {
          size: file.length,
          // GridFS's end is exclusive
          stream: (range) => bucket.openDownloadStream(file._id, range ? { start: range.start, end: range.end + 1 } : {}),
        };
      }),
    remove: (name) =>
      unavailableOr(async () => {
        for (const id of await idsOf(name)) await deleteFile(id);
      }),
    namesStoredBefore: (before) =>
      unavailableOr(async () => [...new Set((await bucket.find({ uploadDate: { $lt: before } }, { projection: { filename: 1 } }).toArray()).map((file) => file.filename))]),
  };
};
