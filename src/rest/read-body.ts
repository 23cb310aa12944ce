import type { IncomingMessage } from 'node:http';
import { malformedJson, payloadTooLarge } from './rest-error';

/**
 * Request bodies, at most `limit` bytes. A body over the limit is read to its end without being
 * kept, so that the client, still sending, can read the 413.
 */
export const readBody = (request: IncomingMessage, limit: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    let size = 0;
    let tooLarge = Number.isFinite(declared) && declared > limit;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    request.on('error', reject);
    request.on('end', () => (tooLarge ? reject(payloadTooLarge(limit)) : resolve(Buffer.concat(chunks))));
    // A client gone before the end of its body: settle rather than wait forever (no-op after `end`).
    request.on('close', () => reject(new Error('request closed before its body ended')));
  });

/** The body as JSON; an empty one reads as `{}` (the official SDK labels bodyless requests JSON). */
export const readJsonBody = async (request: IncomingMessage, limit: number): Promise<unknown> => {
  const text = (await readBody(request, limit)).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw malformedJson((error as Error).message);
  }
};

/** Bodies of GET and DELETE are not read, only drained, so the connection stays usable. */
export const drainBody = (request: IncomingMessage) => {
  request.resume();
};
