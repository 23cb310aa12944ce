import { resolve } from 'node:path';
import { loadConfig } from '../config/load-config';
import { openStore } from '../storage/open-store';
import { loadAuthSecrets } from '../auth/auth-secrets';
import { createApiTokens, type ApiTokenInfo } from '../auth/api-tokens';
import { runTokenRequest, tokenControlPath, type TokenRequest, type TokenResults } from '../auth/token-control';
import { sendControlRequest } from '../common/control-socket';
import { parseArgs } from './parse-args';
import { TOKEN_USAGE } from './usage';

/**
 * `folio token create|list|revoke`: through the running server when there is one (its control socket
 * in the data directory), else straight in the store. `create` prints the access key alone on stdout,
 * once, so `KEY=$(folio token create …)` works; everything else a person reads goes to stderr.
 */

const FLAGS = new Set(['name', 'type', 'permissions', 'expires-in', 'description', 'data', 'config']);

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export const processOutput: Output = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

const requestOf = (positionals: string[], flags: Record<string, string>): TokenRequest => {
  const [action, ...rest] = positionals;
  const usage = () => new Error(`Usage:\n${TOKEN_USAGE}`);
  switch (action) {
    case 'create': {
      if (rest.length > 0 || flags.name === undefined || flags.type === undefined) throw usage();
      return {
        command: 'create',
        token: {
          name: flags.name,
          type: flags.type,
          ...(flags.permissions === undefined ? {} : { permissions: flags.permissions.split(',').map((permission) => permission.trim()).filter(Boolean) }),
          ...(flags['expires-in'] === undefined ? {} : { expiresIn: flags['expires-in'] }),
          ...(flags.description === undefined ? {} : { description: flags.description }),
        },
      };
    }
    case 'list':
      if (rest.length > 0) throw usage();
      return { command: 'list' };
    case 'revoke':
      if (rest.length !== 1) throw usage();
      return { command: 'revoke', name: rest[0] };
    default:
      throw usage();
  }
};

/** No server: the store is opened here, with the secrets the server would use. */
const runInStore = async (request: TokenRequest, dataDir: string, configDir: string) => {
  const config = loadConfig({ configDir, env: process.env });
  const store = await openStore(config.database, dataDir);
  try {
    const tokens = createApiTokens(store, (await loadAuthSecrets({ config, store, dataDir })).tokenSalt);
    if (request.command === 'create') {
      const stored = (await tokens.list()).length;
      if (stored > 0 && (await tokens.countUnusable()) === stored) {
        throw new Error('the stored API tokens were made with another API token salt: run this with the server\'s API_TOKEN_SALT or config/admin');
      }
    }
    return await runTokenRequest(tokens, request);
  } finally {
    await store.close();
  }
};

const describe = (token: ApiTokenInfo) =>
  `${token.type} API token "${token.name}"${token.expiresAt ? `, expires ${token.expiresAt}` : ', never expires'}`;

const table = (tokens: ApiTokenInfo[]): string => {
  const rows = [
    ['NAME', 'TYPE', 'SOURCE', 'CREATED', 'EXPIRES', 'PERMISSIONS'],
    ...tokens.map((token) => [token.name, token.type, token.source, token.createdAt, token.expiresAt ?? 'never', token.permissions.join(',') || '-']),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()).join('\n') + '\n';
};

export const runTokenCommand = async (argv: string[], output: Output = processOutput): Promise<void> => {
  const { positionals, flags } = parseArgs(['token', ...argv], FLAGS);
  const request = requestOf(positionals, flags);
  const dataDir = resolve(flags.data ?? '.data');
  const configDir = resolve(flags.config ?? 'config');
  const reply = await sendControlRequest<TokenResults[keyof TokenResults]>(tokenControlPath(dataDir), request);
  if (reply && !reply.ok) throw new Error(reply.error);
  const result = reply ? reply.result : await runInStore(request, dataDir, configDir);
  switch (request.command) {
    case 'create': {
      const { accessKey, token } = result as TokenResults['create'];
      output.out(`${accessKey}\n`);
      output.err(`Created the ${describe(token)}. The key above is shown once: store it now.\n`);
      return;
    }
    case 'list': {
      const tokens = result as TokenResults['list'];
      if (tokens.length === 0) output.err('No API tokens.\n');
      else output.out(table(tokens));
      return;
    }
    case 'revoke': {
      const token = result as TokenResults['revoke'];
      if (!token) throw new Error(`No API token is named "${request.name}"`);
      output.err(`Revoked the ${describe(token)}.\n`);
      if (token.source === 'config') output.err('It is declared in config/admin: remove it there, or it comes back at the next start.\n');
    }
  }
};
