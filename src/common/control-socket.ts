import cluster from 'node:cluster';
import { chmodSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

/**
 * CLI commands that act on a running server's data (`folio token …`, `folio webhook failed|retry`):
 * the embedded store allows one server per data directory, so the CLI hands its request to the
 * server over a Unix socket in the data directory, one JSON line each way. The workers of one
 * `folio start` all listen on it (Node's cluster shares it): whichever answers writes to the store they
 * share. The socket sits in a
 * directory only the owner can enter: being able to reach it means being able to read the data
 * directory, which holds everything anyway.
 */

export type ControlReply<T> = { ok: true; result: T } | { ok: false; error: string };

export interface ControlSocket {
  close(): Promise<void>;
}

const MAX_REQUEST_BYTES = 64 * 1024;

export const controlSocketPath = (dataDir: string, name: string): string => join(dataDir, 'run', `${name}.sock`);

const serve =
  <Request>(isRequest: (value: unknown) => value is Request, handle: (request: Request) => Promise<unknown>) =>
  (socket: Socket) => {
    let received = '';
    const reply = (body: ControlReply<unknown>) => socket.end(`${JSON.stringify(body)}\n`);
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.length > MAX_REQUEST_BYTES) return reply({ ok: false, error: 'request too large' });
      const end = received.indexOf('\n');
      if (end < 0) return;
      socket.pause();
      let request: unknown;
      try {
        request = JSON.parse(received.slice(0, end));
      } catch {
        return reply({ ok: false, error: 'malformed request' });
      }
      if (!isRequest(request)) return reply({ ok: false, error: 'malformed request' });
      handle(request).then(
        (result) => reply({ ok: true, result }),
        (error: Error) => reply({ ok: false, error: error.message }),
      );
    });
  };

/** Listens at `path`; a socket that cannot be opened only costs the CLI its live path (`unavailable` says what to do instead). */
export const openControlSocket = async <Request>(
  path: string,
  isRequest: (value: unknown) => value is Request,
  handle: (request: Request) => Promise<unknown>,
  unavailable: string,
): Promise<ControlSocket> => {
  const directory = join(path, '..');
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  chmodSync(directory, 0o700);
  // Left by a server that was killed: the data directory is ours now, so is the path. A worker of `folio start`
  // shares the socket its primary listens on (cluster): the primary removed what was left before forking.
  if (!cluster.isWorker) rmSync(path, { force: true });
  const server: Server = createServer(serve(isRequest, handle));
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', (error: Error) => {
      process.stderr.write(`folio: no control socket at ${path} (${error.message}); ${unavailable}\n`);
      resolve(false);
    });
    server.listen(path, () => resolve(true));
  });
  // The HTTP server, not this socket, decides whether the process stays up.
  server.unref();
  return {
    close: () => (listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve()),
  };
};

/** Removes the control sockets a killed server left in `dataDir` (a worker group's primary, before its workers listen). */
export const removeControlSockets = (dataDir: string): void => {
  const directory = join(controlSocketPath(dataDir, 'x'), '..');
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return;
  }
  for (const name of names) if (name.endsWith('.sock')) rmSync(join(directory, name), { force: true });
};

/** One request to a running server's control socket; undefined when no server listens there. */
export const sendControlRequest = <T>(socketPath: string, request: unknown): Promise<ControlReply<T> | undefined> =>
  new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(received) as ControlReply<T>);
      } catch {
        reject(new Error(`the server at ${socketPath} answered something other than a control reply`));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // No socket, or one left by a server that is gone: nobody is running.
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(undefined);
      else reject(error);
    });
  });
