import type { IncomingMessage } from 'node:http';

/**
 * The URL of a request, on a fixed origin. The `Host` header is the client's to write (`bad host`,
 * `x:99999`, `[::1` or nothing), and the path may begin with `//`, which a URL parser reads as a
 * host of its own: neither may decide whether a URL can be built. Folio never serves by host, so
 * the origin carries no information and nothing reads it.
 */

export const REQUEST_HOST = 'localhost';
const ORIGIN = `http://${REQUEST_HOST}`;

/** undefined for a request target that is not a path (`*`, or an absolute URL naming another server) */
export const requestUrl = (request: IncomingMessage): URL | undefined => {
  const target = request.url ?? '/';
  if (!target.startsWith('/')) return undefined;
  try {
    // concatenated, not resolved against a base: `//x:99999/api` stays a path
    return new URL(`${ORIGIN}${target}`);
  } catch {
    return undefined;
  }
};
