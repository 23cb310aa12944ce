import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLError } from 'graphql';
import { httpStatusOf, strapiErrorOf } from '../errors/graphql-errors';
import { sendJson } from '../server/http-server';

/** Reading JSON bodies and answering Strapi's error envelope, for the module's own HTTP routes. */

/** What only HTTP has: a body too large, or not JSON. */
class HttpFailure extends Error {
  constructor(readonly body: { status: number; name: string; message: string; details?: Record<string, unknown> }) {
    super(body.message);
  }
}

/** An empty body is `{}`: clients send `Content-Type: application/json` with nothing after it. */
export const readJsonBody = async (request: IncomingMessage, limit: number): Promise<unknown> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      throw new HttpFailure({ status: 413, name: 'PayloadTooLargeError', message: `Request body is larger than ${limit} bytes`, details: {} });
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // Strapi's answer to malformed JSON has no `details`.
    throw new HttpFailure({ status: 400, name: 'SyntaxError', message: (error as Error).message });
  }
};

export const sendFailure = (response: ServerResponse, error: unknown) => {
  if (error instanceof HttpFailure) return sendJson(response, error.body.status, { data: null, error: error.body });
  const strapi = strapiErrorOf(error as GraphQLError);
  if (!strapi) throw error;
  const status = httpStatusOf(strapi.name);
  const http = (error as GraphQLError).extensions?.http as { headers?: Record<string, string> } | undefined;
  for (const [name, value] of Object.entries(http?.headers ?? {})) response.setHeader(name, value);
  sendJson(response, status, { data: null, error: { status, name: strapi.name, message: strapi.message, details: strapi.details } });
};
