import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { ApiTokenInfo, ApiTokens, NewApiToken } from './api-tokens';

/**
 * `folio token …` while a server runs: the embedded store allows one process per data directory
 * (it answers reads from memory, so another process's writes would go unseen), so the CLI hands its
 * request to the running server over a Unix socket in the data directory, and the server does the
 * write itself. The socket sits in a directory only the owner can enter: being able to reach it
 * means being able to read the data directory, which holds everything anyway.
 */

export type TokenRequest = { command: 'create'; token: NewApiToken } | { command: 'list' } | { command: 'revoke'; name: string };

export interface TokenResults {
  create: { accessKey: string; token: ApiTokenInfo };
  list: ApiTokenInfo[];
  revoke: ApiTokenInfo | null;
}

export type TokenReply = { ok: true; result: TokenResults[keyof TokenResults] } | { ok: false; error: string };

export interface TokenControl {
  close(): Promise<void>;
}

const MAX_REQUEST_BYTES = 64 * 1024;

export const tokenControlPath = (dataDir: string): string => join(dataDir, 'run', 'tokens.sock');

export const runTokenRequest = async (tokens: ApiTokens, request: TokenRequest): Promise<TokenResults[keyof TokenResults]> => {
  switch (request.command) {
    case 'create':
      return tokens.create(request.token);
    case 'list':
      return tokens.list();
    case 'revoke':
      return (await tokens.revoke(request.name)) ?? null;
    default:
      throw new Error(`unknown token command "${(request as { command: unknown }).command}"`);
  }
};

const isTokenRequest = (value: unknown): value is TokenRequest => {
  const request = value as { command?: unknown; token?: unknown; name?: unknown } | null;
  if (typeof request !== 'object' || request === null) return false;
  if (request.command === 'list') return true;
  if (request.command === 'revoke') return typeof request.name === 'string';
  return request.command === 'create' && typeof request.token === 'object' && request.token !== null;
};

const serve = (tokens: ApiTokens) => (socket: Socket) => {
  let received = '';
  const reply = (body: TokenReply) => socket.end(`${JSON.stringify(body)}\n`);
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
    if (!isTokenRequest(request)) return reply({ ok: false, error: 'malformed request' });
    runTokenRequest(tokens, request).then(
      (result) => reply({ ok: true, result }),
      (error: Error) => reply({ ok: false, error: error.message }),
    );
  });
};

/** Listens on `tokenControlPath(dataDir)`; a socket that cannot be opened only costs the CLI its live path. */
export const openTokenControl = async (dataDir: string, tokens: ApiTokens): Promise<TokenControl> => {
  const path = tokenControlPath(dataDir);
  const directory = join(dataDir, 'run');
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  chmodSync(directory, 0o700);
  // Left by a server that was killed: the data directory is ours now, so is the path.
  rmSync(path, { force: true });
  const server: Server = createServer(serve(tokens));
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', (error: Error) => {
      process.stderr.write(`folio: no token control socket at ${path} (${error.message}); stop the server to manage tokens from the CLI\n`);
      resolve(false);
    });
    server.listen(path, () => resolve(true));
  });
  // The HTTP server, not this socket, decides whether the process stays up.
  server.unref();
  return {
    close: () =>
      listening
        ? new Promise<void>((resolve) => {
            server.close(() => resolve());
          })
        : Promise.resolve(),
  };
};
