import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Stopping a server without cutting the requests under way (a rolling restart sends SIGTERM while clients are
 * being answered): it stops accepting, lets each answer finish, and closes every connection as it falls idle.
 * Streams never finish on their own (subscriptions over Server-Sent Events): they end at once. What is still
 * running after `graceMs` is cut.
 */

const STREAMS = /text\/event-stream/;

export const trackRequests = (server: Server, graceMs: number): (() => Promise<void>) => {
  const streams = new Set<IncomingMessage>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!STREAMS.test(request.headers.accept ?? '')) return;
    streams.add(request);
    response.once('close', () => streams.delete(request));
  });
  return () =>
    new Promise<void>((closed) => {
      server.close(() => closed());
      for (const stream of streams) stream.socket.destroy();
      // an answer that ends leaves its keep-alive connection idle: closed on the next tick
      const idle = setInterval(() => server.closeIdleConnections(), 25);
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      server.once('close', () => {
        clearInterval(idle);
        clearTimeout(cut);
      });
    });
};
