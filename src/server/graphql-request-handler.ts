import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import { readBody } from './http-json';
import { createFetchRequest } from '../graphql/fetch-request';
import { REQUEST_HOST } from './request-url';
import type { GraphqlServer } from '../graphql/create-graphql-server';

/**
 * The node front of `/graphql`, holding requests to the body limit before yoga sees them.
 *
 * yoga can enforce a limit itself, but does it by piping every request body through a
 * TransformStream into a new Request: a stream pipeline, an AbortController and a DOMException
 * per request, a quarter of the throughput of a small query (bench). Here a body that declares
 * its length within the limit goes to yoga as it is (node's parser reads no more than that
 * length); any other body (chunked, or declared too long) is read here within the limit, and
 * only a complete body reaches yoga.
 */

// yoga's own answer to a body over its limit
const TOO_LARGE = JSON.stringify({ errors: [{ message: 'Request body too large', extensions: { code: 'REQUEST_ENTITY_TOO_LARGE' } }] });

const hasBody = (request: IncomingMessage): boolean => request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;

const send = async (answer: Response, response: ServerResponse) => {
  const headers: Record<string, string | string[]> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const body = Buffer.from(await answer.arrayBuffer());
  response.writeHead(answer.status, { ...headers, 'content-length': body.length });
  response.end(body);
};

export const createGraphqlRequestHandler = (yoga: GraphqlServer, bodyLimit: number) => {
  const toFetchRequest = createFetchRequest(yoga.fetchAPI);
  const readThenHandle = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    let body: Buffer;
    try {
      body = await readBody(request, bodyLimit);
    } catch (error) {
      // anything but the limit is a client gone mid-body: nobody to answer
      if (!(error instanceof GraphQLError && error.extensions.code === 'PAYLOAD_TOO_LARGE')) throw error;
      response.writeHead(413, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(TOO_LARGE) });
      response.end(TOO_LARGE);
      return;
    }
    const answer = await yoga.fetch(toFetchRequest(request, url, body.toString('utf8')));
    await send(answer, response);
  };

  /** `url`: the request's, on Folio's fixed origin (see request-url); settles once the request is answered (or its client gone) and its operation done */
  return (request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> => {
    const declared = request.headers['content-length'];
    const fitsAsItIs = declared === undefined ? !hasBody(request) : Number(declared) <= bodyLimit;
    if (fitsAsItIs) {
      // yoga's node adapter builds its URL from `Host`: a client's `Host: x:99999` would fail there with a stack trace
      request.headers.host = REQUEST_HOST;
      return Promise.resolve(yoga(request, response)).then(() => undefined);
    }
    return readThenHandle(request, response, url).catch(() => {
      if (!response.headersSent) response.destroy();
    });
  };
};
