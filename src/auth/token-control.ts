import type { ApiTokenInfo, ApiTokens, NewApiToken } from './api-tokens';
import { controlSocketPath, openControlSocket, type ControlSocket } from '../common/control-socket';

/**
 * `folio token …` while a server runs: the CLI hands its request to the running server over its
 * control socket (see common/control-socket), and the server does the write itself.
 */

export type TokenRequest = { command: 'create'; token: NewApiToken } | { command: 'list' } | { command: 'revoke'; name: string };

export interface TokenResults {
  create: { accessKey: string; token: ApiTokenInfo };
  list: ApiTokenInfo[];
  revoke: ApiTokenInfo | null;
}

export type TokenControl = ControlSocket;

export const tokenControlPath = (dataDir: string): string => controlSocketPath(dataDir, 'tokens');

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

/** Listens at `tokenControlPath(dataDir)`. */
export const openTokenControl = (dataDir: string, tokens: ApiTokens): Promise<TokenControl> =>
  openControlSocket(tokenControlPath(dataDir), isTokenRequest, (request) => runTokenRequest(tokens, request), 'stop the server to manage tokens from the CLI');
