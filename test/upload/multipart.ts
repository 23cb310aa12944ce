import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';

/**
 * Multipart bodies written by hand, for what `fetch` + `FormData` cannot do: stream a file far
 * bigger than memory, send hostile file names verbatim, or stop half-way.
 */

export interface Part {
  name: string;
  /** present for file parts */
  filename?: string;
  type?: string;
  content: Buffer | string | (() => AsyncIterable<Buffer>);
}

export const BOUNDARY = '----folio-test-boundary-7MA4YWxkTrZu0gW';

const partHeader = (part: Omit<Part, 'content'>): string =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}\r\n` +
  (part.type ? `Content-Type: ${part.type}\r\n` : '') +
  '\r\n';

async function* bodyOf(parts: Part[]): AsyncIterable<Buffer> {
  for (const part of parts) {
    yield Buffer.from(partHeader(part), 'utf8');
    if (typeof part.content === 'function') yield* part.content();
    else yield Buffer.from(part.content);
    yield Buffer.from('\r\n');
  }
  yield Buffer.from(`--${BOUNDARY}--\r\n`);
}

/** `bytes` bytes in 64 KB chunks made on demand: memory stays flat whatever the size. */
export const generatedBytes = (bytes: number, fill = 0x61) =>
  async function* generate(): AsyncIterable<Buffer> {
    const chunk = Buffer.alloc(64 * 1024, fill);
    for (let sent = 0; sent < bytes; sent += chunk.length) yield bytes - sent >= chunk.length ? chunk : chunk.subarray(0, bytes - sent);
  };

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** the request body could not be written to the end (the server closed early) */
  writeFailed: boolean;
}

/** POSTs the parts, streamed with chunked encoding; resolves with the answer even if the server stops reading. */
export const postMultipart = (url: string, parts: Part[], headers: Record<string, string> = {}): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    let writeFailed = false;
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8'), writeFailed }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      // EPIPE/ECONNRESET after the answer came: the server closed instead of reading the rest, as it should.
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') writeFailed = true;
      else reject(error);
    });
    const body = Readable.from(bodyOf(parts));
    body.on('error', reject);
    body.pipe(request);
  });

/** Sends the first parts and `bytesOfFile` bytes of the next file part, then drops the connection. */
export const abortMidUpload = (url: string, headers: Record<string, string>, bytesOfFile: number): Promise<void> =>
  new Promise((resolve) => {
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers } });
    request.on('error', () => resolve());
    request.on('close', () => resolve());
    request.write(partHeader({ name: 'files', filename: 'partial.bin', type: 'application/octet-stream' }));
    request.write(Buffer.alloc(bytesOfFile, 0x62), () => {
      // Let the server receive the bytes before the connection goes.
      setTimeout(() => request.destroy(), 200);
    });
  });
