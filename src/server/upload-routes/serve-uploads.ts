import { pipeline } from 'node:stream/promises';
import type { OutgoingHttpHeaders } from 'node:http';
import type { HttpRoute } from '../folio-module';
import { errorBody } from '../error-envelope';
import { notFoundError, rangeNotSatisfiableError } from '../../errors/graphql-errors';
import { sendError } from '../http-json';
import { STORED_NAME } from '../../media/file-names';
import { URL_PREFIX } from '../../media/file-record';
import type { FileService } from '../../media/file-service';
import type { UploadProvider } from '../../media/upload-provider';
import { parseByteRange } from './byte-range';

/**
 * `/uploads/<hash><ext>`: the stored files, public as in Strapi, from whichever provider keeps them
 * (with GridFS, every instance serves every file). A name is served only when a file record has that
 * URL (its own or one of its formats'), so temporary files are never reachable, and the Content-Type
 * is the one judged from the content at upload, never guessed from the extension. One byte range is
 * served as asked (206), so players and download managers can seek and resume.
 */

// Types a browser would run script in if opened directly from our origin.
const ACTIVE_CONTENT = /html|xml|svg|javascript/;

const headersFor = (mime: string, length: number): OutgoingHttpHeaders => ({
  'content-type': mime.startsWith('text/') ? `${mime}; charset=utf-8` : mime,
  'content-length': length,
  'accept-ranges': 'bytes',
  'x-content-type-options': 'nosniff',
  ...(ACTIVE_CONTENT.test(mime) ? { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox" } : {}),
});

export const createServeUploadsRoute = (files: FileService, provider: UploadProvider): HttpRoute => async (request, response, url) => {
  if (!url.pathname.startsWith(URL_PREFIX) || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
  // The raw segment is matched, undecoded: `%2F`, `..` and friends simply do not match.
  const storedName = url.pathname.slice(URL_PREFIX.length);
  const mime = STORED_NAME.test(storedName) ? await files.storedFileType(storedName) : null;
  const opened = mime ? await provider.read(storedName) : null;
  if (!mime || !opened) {
    sendError(response, errorBody(notFoundError()));
    return true;
  }
  const range = parseByteRange(request.headers.range, opened.size);
  if (range.kind === 'unsatisfiable' || request.method === 'HEAD') await opened.close();
  if (range.kind === 'unsatisfiable') {
    sendError(response, errorBody(rangeNotSatisfiableError(opened.size)), { 'content-range': `bytes */${opened.size}` });
    return true;
  }
  if (range.kind === 'part') {
    response.writeHead(206, { ...headersFor(mime, range.end - range.start + 1), 'content-range': `bytes ${range.start}-${range.end}/${opened.size}` });
  } else response.writeHead(200, headersFor(mime, opened.size));
  if (request.method === 'HEAD') {
    response.end();
    return true;
  }
  // A client that leaves mid-file is not an error worth more than closing the file.
  await pipeline(opened.stream(range.kind === 'part' ? range : undefined), response).catch(() => undefined);
  return true;
};
