import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Stopping a server without cutting the requests under way (a rolling restart sends SIGTERM while clients are
 * being answered): it stops accepting, lets each answer finish, and closes every connection as it falls idle.
 * Streams never finish on their own (subscriptions over Server-Sent Events or multipart): they end at once,
 * known by the type of their answer (a client's Accept names streams for every request it sends). What is
 * still running after `graceMs` is cut.
 *
 * A request whose client left is still being worked on: the server is closed only once its handler has
 * settled too, so the store it reads is not closed under it (a load generator stopped with 50 requests in
 * flight had each fail on a stopped reader thread and log it).
 */

const STREAMS = /^\s*(text\/event-stream|multipart\/mixed)/i;

const isStream = (response: ServerResponse): boolean => STREAMS.test(String(response.getHeader('content-type') ?? ''));

type Listener = (request: IncomingMessage, response: ServerResponse) => Promise<void> | void;

export const createGracefulClose = (graceMs: number) => {
  const answering = new Set<ServerResponse>();
  const handling = new Set<Promise<void>>();
  return {
    /** `listener`, its answers and handlers followed (a handler's promise, when it returns one) */
    track: (listener: Listener): Listener => (request, response) => {
      answering.add(response);
      response.once('close', () => answering.delete(response));
      const handled = listener(request, response);
      if (!handled) return;
      const settled = handled.then(
        () => undefined,
        () => undefined,
      );
      handling.add(settled);
      void settled.then(() => handling.delete(settled));
    },
    close: (server: Server): Promise<void> =>
      new Promise<void>((closed) => {
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        const started = Date.now();
        server.close(() => {
          // the connections are gone; the handlers of requests whose clients left may still run, within the grace
          const left = setTimeout(() => closed(), Math.max(0, graceMs - (Date.now() - started)));
          void Promise.all([...handling]).then(() => {
            clearTimeout(left);
            closed();
          });
        });
        const settle = () => {
          for (const response of answering) if (isStream(response)) response.socket?.destroy();
          // an answer that ends leaves its keep-alive connection idle
          server.closeIdleConnections();
        };
        settle();
        const ticks = setInterval(settle, 25);
        server.once('close', () => {
          clearInterval(ticks);
          clearTimeout(cut);
        });
      }),
  };
};
