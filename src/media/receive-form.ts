import type { IncomingMessage } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { badUserInput, payloadTooLargeError } from '../errors/graphql-errors';
import { createFileHash, extensionOf, sanitizeFileName } from './file-names';
import { storedNameOf } from './file-record';
import { readImageDimensions } from './image-dimensions';
import type { UploadProvider } from './upload-provider';
import { isTypeAllowed, sniffFileType, SNIFF_BYTES, type FileType } from './sniff-file-type';

/**
 * Reads a multipart upload, streaming each `files` part straight to the provider's workspace
 * (busboy → inspector → file, with backpressure: memory does not grow with file size). A part is
 * judged by its first bytes as they pass, and written under a temporary name until complete. Any
 * failure (size limit, type not allowed, malformed form, client gone) stops reading and removes
 * every file this request wrote: the caller gets either all files in the workspace or an error and
 * none.
 */

export interface ReceivedFile {
  /** the name the client gave, cleaned */
  name: string;
  hash: string;
  ext: string;
  /** judged from the content */
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
}

export interface ReceivedForm {
  files: ReceivedFile[];
  /** raw values of the `fileInfo` fields, in order */
  fileInfo: string[];
}

export interface ReceiveOptions {
  /** the files are written to its workspace, where they stay until stored */
  provider: UploadProvider;
  /** bytes per file */
  sizeLimit: number;
  allowedTypes: readonly string[];
}

/** The client went away mid-upload: there is nobody to answer. */
export class UploadAbortedError extends Error {
  constructor() {
    super('The client aborted the upload');
    this.name = 'UploadAbortedError';
  }
}

// Bounds on what one form may hold besides file bytes; generous for real clients, small for abuse.
const MAX_FILES = 100;
const MAX_FIELDS = 200;
const MAX_FIELD_BYTES = 1024 * 1024;

/** Strapi's "upload entry files" fields; linking on upload is not offered, and ignoring them would lose the link silently. */
const LINKING_FIELDS = new Set(['ref', 'refId', 'field']);

const isMultipart = (request: IncomingMessage): boolean => /^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '');

/** Passes bytes through, counting them, and judges the type once the first SNIFF_BYTES have passed. */
const createInspector = (fileName: string, declared: string, allowedTypes: readonly string[]) => {
  let head = Buffer.alloc(0);
  let bytes = 0;
  let type: FileType | undefined;
  const judge = (complete: boolean) => {
    type = sniffFileType(head, declared, complete);
    if (!isTypeAllowed(type.mime, allowedTypes)) {
      throw badUserInput(`File type ${type.mime} is not allowed`, { name: fileName, mime: type.mime, allowedTypes: [...allowedTypes] });
    }
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      try {
        if (!type) {
          head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
          if (head.length >= SNIFF_BYTES) judge(false);
        }
        done(null, chunk);
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        // An empty part is what a browser sends for a file input left empty: not a file, nothing to judge.
        if (!type && bytes > 0) judge(true);
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
  return { stream, result: () => ({ bytes, type }) };
};

/**
 * One `files` part to disk; null for an empty part. A failure is reported through `abort` the
 * moment it happens (so the request stops being read), then the part's own file is removed.
 */
const storeFile = async (source: Readable, info: busboy.FileInfo, options: ReceiveOptions, abort: (error: Error) => void): Promise<ReceivedFile | null> => {
  const { provider } = options;
  const name = sanitizeFileName(info.filename ?? '');
  const hash = createFileHash(name);
  const partial = `${hash}.part`;
  const inspector = createInspector(name, info.mimeType, options.allowedTypes);
  source.once('limit', () => abort(payloadTooLargeError('FileTooBig', { name, sizeLimit: options.sizeLimit })));
  try {
    await pipeline(source, inspector.stream, provider.workspace.createWriteStream(partial));
  } catch (error) {
    abort(error as Error);
    await provider.workspace.remove(partial);
    throw error;
  }
  const { bytes, type } = inspector.result();
  // No type means no bytes: an empty part.
  if (!type) {
    await provider.workspace.remove(partial);
    return null;
  }
  const ext = extensionOf(name) || type.ext;
  const stored = `${hash}${ext}`;
  try {
    await provider.workspace.rename(partial, stored);
    const dimensions = await provider.workspace.withReader(stored, (readAt) => readImageDimensions(type.mime, readAt));
    return { name, hash, ext, mime: type.mime, bytes, width: dimensions?.width ?? null, height: dimensions?.height ?? null };
  } catch (error) {
    await Promise.all([provider.workspace.remove(partial), provider.workspace.remove(stored)]);
    throw error;
  }
};

/**
 * The form's files (on disk) and `fileInfo` fields. A body that is not multipart is not read and
 * counts as an empty form. On failure the rest of the request is left unread (see upload-responses).
 */
export const receiveForm = (request: IncomingMessage, options: ReceiveOptions): Promise<ReceivedForm> => {
  if (!isMultipart(request)) return Promise.resolve({ files: [], fileInfo: [] });
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        // Browsers send UTF-8 file names without saying so; busboy would read them as Latin-1.
        defParamCharset: 'utf8',
        // busboy reports reaching the limit, not passing it: one byte more tells a file of exactly sizeLimit bytes from a bigger one.
        limits: { fileSize: options.sizeLimit + 1, files: MAX_FILES, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES },
      });
    } catch (error) {
      reject(badUserInput(`Malformed multipart body: ${(error as Error).message}`));
      return;
    }
    const tasks: Array<Promise<ReceivedFile | null>> = [];
    const sources = new Set<Readable>();
    const fileInfo: string[] = [];
    let failure: Error | undefined;

    const fail = (error: Error) => {
      if (failure) return;
      failure = error;
      request.unpipe(parser);
      for (const source of sources) source.destroy(error);
      // Not synchronously: fail() can run inside busboy's own 'limit' event, and busboy goes on using its state after it.
      process.nextTick(() => parser.destroy());
      void Promise.allSettled(tasks).then(async (results) => {
        const written = results.flatMap((result) => (result.status === 'fulfilled' && result.value ? [result.value] : []));
        await Promise.all(written.map((file) => options.provider.workspace.remove(storedNameOf(file))));
        reject(error);
      });
    };

    parser.on('file', (field, source, info) => {
      if (failure || field !== 'files') {
        // A skipped part still fails when the form is cut off: its error is the parser's, already handled there.
        source.on('error', () => undefined);
        source.resume();
        return;
      }
      sources.add(source);
      const task = storeFile(source, info, options, fail);
      tasks.push(task);
      task.then(
        () => sources.delete(source),
        (error: Error) => {
          sources.delete(source);
          fail(error);
        },
      );
    });
    parser.on('field', (field, value, info) => {
      if (field === 'fileInfo') {
        if (info.valueTruncated) fail(badUserInput(`fileInfo is longer than ${MAX_FIELD_BYTES} bytes`));
        else fileInfo.push(value);
      } else if (LINKING_FIELDS.has(field)) {
        fail(badUserInput('Linking uploaded files to an entry (ref, refId, field) is not supported: set the media attribute to the file id instead'));
      }
    });
    parser.on('filesLimit', () => fail(payloadTooLargeError(`More than ${MAX_FILES} files in one upload`)));
    parser.on('fieldsLimit', () => fail(payloadTooLargeError(`More than ${MAX_FIELDS} fields in one upload`)));
    parser.on('error', (error: Error) => fail(badUserInput(`Malformed multipart body: ${error.message}`)));
    parser.on('close', () => {
      void Promise.all(tasks).then(
        (files) => {
          if (!failure) resolve({ files: files.filter((file): file is ReceivedFile => file !== null), fileInfo });
        },
        () => undefined, // the failing task has called fail()
      );
    });
    request.on('error', () => fail(new UploadAbortedError()));
    request.on('close', () => {
      if (!request.complete) fail(new UploadAbortedError());
    });
    request.pipe(parser);
  });
};
