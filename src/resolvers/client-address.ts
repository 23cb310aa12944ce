import { IncomingMessage } from 'node:http';
import type { TrustedProxy } from '../config/types';
import type { FolioContext } from '../context';

/**
 * The key clients are counted by: the peer address, or, behind a trusted proxy (`server.proxy`), koa's `ctx.ip`:
 * the first address of the proxy's header (`X-Forwarded-For`) once it is cut to its last `maxIpsCount`, else
 * the peer's. Without a proxy the header is not read: anyone could write it.
 */
export const clientAddressOf = (request: IncomingMessage, proxy: TrustedProxy | false): string => {
  const peer = request.socket.remoteAddress ?? 'unknown';
  const header = proxy ? request.headers[proxy.ipHeader] : undefined;
  if (!proxy || !header) return peer;
  const addresses = (Array.isArray(header) ? header.join(',') : header).split(',').map((address) => address.trim());
  return (proxy.maxIpsCount > 0 ? addresses.slice(-proxy.maxIpsCount) : addresses)[0] || peer;
};

/** The client of a GraphQL operation: graphql-yoga (and the graphql-ws front) put the node:http request in the context as `req`. */
export const clientOfContext = (context: FolioContext): string => {
  const request = (context as { req?: unknown }).req;
  return request instanceof IncomingMessage ? clientAddressOf(request, context.services.config.server.proxy) : 'unknown';
};
