import type { IncomingMessage } from 'node:http';
import type { GraphqlServer } from './create-graphql-server';

/**
 * The Fetch `Request` yoga's context factory reads (headers: `authorization`…), made from the
 * node request, with the body already read (REST, or a chunked body at the /graphql front) when there is one.
 */
/** What a Fetch request is made of: a node request, or the head of one Folio makes for project code's own calls. */
export type RequestHead = Pick<IncomingMessage, 'method' | 'rawHeaders' | 'headers'>;

export const createFetchRequest = (fetchAPI: GraphqlServer['fetchAPI']) => (request: RequestHead, url: URL, body?: string): Request => {
  const headers = new fetchAPI.Headers();
  const raw = request.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    try {
      headers.append(raw[index], raw[index + 1]);
    } catch {
      // A header the Fetch API refuses cannot matter to the context: leave it out.
    }
  }
  return new fetchAPI.Request(url.href, { method: request.method, headers, body });
};
