import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { STORED_NAME } from './file-names';
import type { ReadAt } from './image-dimensions';

/**
 * A directory of uploaded files: where an upload is received and its image formats are made, and the
 * local provider's store. Every method takes a stored name (`<hash><ext>`) and refuses anything else,
 * so no request can reach a path outside the directory.
 */

export interface UploadFolder {
  readonly directory: string;
  ensureDirectory(): Promise<void>;
  /** the file's path, for a library that opens files itself (sharp reads and writes image files by path) */
  pathOf(storedName: string): string;
  /** the file exists once this returns; fails if it existed: a fresh random name never does */
  createWriteStream(storedName: string): WriteStream;
  /** one open file (closed once its stream ends, or by `close` when no stream is wanted), or null when it is missing */
  read(storedName: string): Promise<OpenFile | null>;
  rename(from: string, to: string): Promise<void>;
  /** positional reads on the stored file, for header parsing */
  withReader<T>(storedName: string, work: (readAt: ReadAt) => Promise<T>): Promise<T>;
  /** removes the file; a missing file is not an error */
  remove(storedName: string): Promise<void>;
  /** the stored names in the directory (anything else there is not the provider's) */
  list(): Promise<string[]>;
}

export interface OpenFile {
  size: number;
  /** the bytes from `start` to `end` (both included), or all of them */
  stream(range?: { start: number; end: number }): Readable;
  close(): Promise<void>;
}

export const createUploadFolder = (root: string): UploadFolder => {
  const pathOf = (storedName: string): string => {
    if (!STORED_NAME.test(storedName)) throw new Error(`Refusing stored file name ${JSON.stringify(storedName)}`);
    return join(root, storedName);
  };
  return {
    directory: root,
    ensureDirectory: async () => {
      await mkdir(root, { recursive: true });
    },
    pathOf,
    // Opened here, not on libuv's pool: a stream's own open could still be queued when its upload failed and the
    // file was removed, and then create the file after, left behind for good (seen under load in test/e2e/upload-limits).
    createWriteStream: (storedName) => {
      const path = pathOf(storedName);
      return createWriteStream(path, { fd: openSync(path, 'wx') });
    },
    read: async (storedName) => {
      // One handle for both the size and the bytes: a file removed in between cannot be half-served.
      const handle = await open(pathOf(storedName), 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      if (!handle) return null;
      try {
        const { size } = await handle.stat();
        return { size, stream: (range) => handle.createReadStream(range ?? {}), close: () => handle.close() };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
    rename: (from, to) => rename(pathOf(from), pathOf(to)),
    withReader: async (storedName, work) => {
      const handle = await open(pathOf(storedName), 'r');
      try {
        return await work(async (position, length) => {
          const buffer = Buffer.alloc(length);
          const { bytesRead } = await handle.read(buffer, 0, length, position);
          return buffer.subarray(0, bytesRead);
        });
      } finally {
        await handle.close();
      }
    },
    remove: (storedName) => rm(pathOf(storedName), { force: true }),
    list: async () => (await readdir(root, { withFileTypes: true })).filter((entry) => entry.isFile() && STORED_NAME.test(entry.name)).map((entry) => entry.name),
  };
};
