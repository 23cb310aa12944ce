import type { Plugin } from 'graphql-yoga';
import type { ExecutionResult } from 'graphql';
import { malformedRequestJsonError, withBadUserInputCode } from '../../errors/graphql-errors';

/**
 * Client mistakes at the GraphQL endpoint answer in GraphQL's envelope with Apollo's codes, as
 * Strapi's do:
 * - a request that never reached execution (parse, validation or variable errors: no `data`) is
 *   HTTP 400 whatever the client accepts (yoga keeps 200 for plain `application/json`), and a
 *   variable that does not coerce is `BAD_USER_INPUT` (graphql-js gives it no code). Execution
 *   errors stay 200 so Apollo Client keeps them.
 * - malformed JSON in a GET's `variables` or `extensions` is a 400, not a thrown SyntaxError;
 * - a method other than GET or POST (405), a body type no parser reads (415) and an `Accept` no
 *   answer fits (406) say so in a body.
 */

const requestError = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });

export const useClientErrors = (): Plugin => ({
  onRequestParse({ request, requestParser, setRequestParser, endResponse }) {
    if (request.method !== 'GET' && request.method !== 'POST') {
      const refusal = requestError(405, 'METHOD_NOT_ALLOWED', 'The GraphQL endpoint takes GET and POST');
      refusal.headers.set('allow', 'GET, POST');
      endResponse(refusal);
      return;
    }
    if (!requestParser) {
      endResponse(requestError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send a GET, or a POST of application/json, application/graphql+json or multipart/form-data'));
      return;
    }
    setRequestParser(async (request) => {
      try {
        return await requestParser(request);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
        throw malformedRequestJsonError(error.message);
      }
    });
  },
  onResultProcess({ result, setResult, resultProcessor, setResultProcessor }) {
    if (!resultProcessor) {
      setResultProcessor(() => requestError(406, 'NOT_ACCEPTABLE', 'Accept application/json, application/graphql-response+json, multipart/mixed or text/event-stream'), 'application/json');
      return;
    }
    if (Array.isArray(result) || Symbol.asyncIterator in result) return;
    const single = result as ExecutionResult;
    if (!single.errors?.length || 'data' in single) return;
    setResult({ ...single, errors: single.errors.map(withBadUserInputCode), extensions: { ...single.extensions, http: { ...(single.extensions?.http as object), status: 400 } } });
  },
});
