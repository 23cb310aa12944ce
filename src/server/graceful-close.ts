import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Stopping a server without cutting the requests under way (a rolling restart sends SIGTERM while clients are
 * being answered): it stops accepting, lets each answer finish, and closes every connection as it falls idle.
 * Streams never finish on their own (subscriptions over Server-Sent Events or multipart): they end at once,
 * known by the type of their answer (a client's Accept names streams for every request it sends). What is
 * still running after `graceMs` is cut.
 */

const STREAMS = /^\s*(text\/event-stream|multipart\/mixed)/i;

const isStream = (response: ServerResponse): boolean => STREAMS.test(String(response.getHeader('content-type') ?? ''));

export const trackRequests = (server: Server, graceMs: number): (() => Promise<void>) => {
  const answering = new Set<ServerResponse>();
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    answering.add(response);
    response.once('close', () => answering.delete(response));
  });
  return () =>
    new Promise<void>((closed) => {
      server.close(() => closed());
      const settle = () => {
        for (const response of answering) if (isStream(response)) response.socket?.destroy();
        // an answer that ends leaves its keep-alive connection idle
        server.closeIdleConnections();
      };
      settle();
      const ticks = setInterval(settle, 25);
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      server.once('close', () => {
        clearInterval(ticks);
        clearTimeout(cut);
      });
    });
};
