import type { IncomingMessage } from 'node:http';
import { malformedJson, payloadTooLarge } from './rest-error';

/**
 * The request body as JSON, at most `limit` bytes. An empty body reads as `{}` (the official
 * SDK labels bodyless requests JSON). A body over the limit is read to its end without being kept,
 * so the client, still sending, can read the 413.
 */
export const readJsonBody = (request: IncomingMessage, limit: number): Promise<unknown> =>
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
    request.on('end', () => {
      if (tooLarge) return reject(payloadTooLarge(limit));
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch (error) {
        reject(malformedJson((error as Error).message));
      }
    });
  });

/** Bodies of GET and DELETE are not read, only drained, so the connection stays usable. */
export const drainBody = (request: IncomingMessage) => {
  request.resume();
};
