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
  /** bytes of the body the server let the client send */
  bytesSent: number;
}

/** POSTs the parts, streamed with chunked encoding; resolves with the answer once the exchange is over, even if the server stopped reading. */
export const postMultipart = (url: string, parts: Part[], headers: Record<string, string> = {}): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    let bytesSent = 0;
    let answer: Omit<RawResponse, 'bytesSent'> | undefined;
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        answer = { status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') };
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      // EPIPE/ECONNRESET: the server closed instead of reading the rest, as it should after an early answer.
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    request.on('close', () => (answer ? resolve({ ...answer, bytesSent }) : reject(new Error('connection closed without an answer'))));
    const body = Readable.from(
      (async function* counted() {
        for await (const chunk of bodyOf(parts)) {
          bytesSent += chunk.length;
          yield chunk;
        }
      })(),
    );
    body.on('error', reject);
    body.pipe(request);
  });

export interface PartialUpload {
  /** drops the connection; resolves once it is gone */
  abort(): Promise<void>;
}

/** Sends the complete `parts`, then `partialBytes` of one more file, and waits there until aborted. */
export const startPartialUpload = (url: string, headers: Record<string, string>, parts: Array<Part & { content: Buffer | string }>, partialBytes: number): PartialUpload => {
  const request = httpRequest(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers } });
  const closed = new Promise<void>((resolve) => request.on('close', () => resolve()));
  request.on('error', () => undefined);
  const complete = parts.map((part) => Buffer.concat([Buffer.from(partHeader(part)), Buffer.from(part.content), Buffer.from('\r\n')]));
  request.write(Buffer.concat([...complete, Buffer.from(partHeader({ name: 'files', filename: 'partial.bin', type: 'application/octet-stream' })), Buffer.alloc(partialBytes, 0x62)]));
  return {
    abort: () => {
      request.destroy();
      return closed;
    },
  };
};
