import type { Plugin } from 'graphql-yoga';
import { responseTooLargeMessage } from '../../errors/graphql-errors';

/**
 * `maxResponseBytes`: a GraphQL answer larger than this is replaced by an error saying so, before
 * it is sent (the cost limit keeps most such answers from being built at all). Streamed answers
 * (subscriptions, `@defer`) carry no length and pass; each of their parts is small.
 */
export const useResponseSizeLimit = (maxBytes: number): Plugin => ({
  onResponse({ response, setResponse }) {
    const bytes = Number(response.headers.get('content-length'));
    if (!(bytes > maxBytes)) return;
    setResponse(
      new Response(JSON.stringify({ errors: [{ message: responseTooLargeMessage(bytes, maxBytes), extensions: { code: 'RESPONSE_TOO_LARGE', bytes, maxResponseBytes: maxBytes } }] }), {
        status: 400,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      }),
    );
  },
});
