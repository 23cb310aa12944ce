import { connect } from 'node:net';
import type { TokenReply, TokenRequest } from '../auth/token-control';

/** One request to a running server's token control socket; undefined when no server listens there. */
export const sendTokenRequest = (socketPath: string, request: TokenRequest): Promise<TokenReply | undefined> =>
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
        resolve(JSON.parse(received) as TokenReply);
      } catch {
        reject(new Error(`the server at ${socketPath} answered something other than a token reply`));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // No socket, or one left by a server that is gone: nobody is running.
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(undefined);
      else reject(error);
    });
  });
