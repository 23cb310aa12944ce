import type { ConfigProblem } from './config-error';
import type { ConfigFile } from './file-schemas';
import type { FolioConfig, TrustedProxy } from './types';

type Server = FolioConfig['server'];
type ServerFile = ConfigFile<'server'>;

export interface ServerOverrides {
  host?: string;
  port?: number;
  workers?: Server['workers'];
  heapGrowingPercent?: number;
  softMemoryLimit?: number | false;
}

const PORT_RANGE = 'must be an integer from 0 to 65535 (0 picks a free port)';

function isPort(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= 65535;
}

const WORKERS_RANGE = 'must be "auto" or an integer from 1 to 256';

/** `"auto"` or a count of processes, from the text of an environment variable or a flag */
export function workersOf(text: string): Server['workers'] | undefined {
  if (text === 'auto') return 'auto';
  const count = /^\d+$/.test(text) ? Number(text) : NaN;
  return count >= 1 && count <= 256 ? count : undefined;
}

function fromEnv(env: NodeJS.ProcessEnv, problems: ConfigProblem[]): ServerOverrides {
  const server: ServerOverrides = {};
  if (env.HOST) server.host = env.HOST;
  if (env.PORT) {
    const port = /^\d+$/.test(env.PORT) ? Number(env.PORT) : NaN;
    if (isPort(port)) server.port = port;
    else problems.push({ source: 'env PORT', message: `${PORT_RANGE}, got "${env.PORT}"` });
  }
  if (env.FOLIO_HEAP_GROWING_PERCENT) {
    const percent = /^\d+$/.test(env.FOLIO_HEAP_GROWING_PERCENT) ? Number(env.FOLIO_HEAP_GROWING_PERCENT) : NaN;
    if (percent <= 400) server.heapGrowingPercent = percent;
    else problems.push({ source: 'env FOLIO_HEAP_GROWING_PERCENT', message: `must be an integer from 0 to 400, got "${env.FOLIO_HEAP_GROWING_PERCENT}"` });
  }
  if (env.FOLIO_SOFT_MEMORY_LIMIT) {
    const text = env.FOLIO_SOFT_MEMORY_LIMIT;
    const bytes = /^\d+$/.test(text) ? Number(text) : NaN;
    if (text === 'false') server.softMemoryLimit = false;
    else if (bytes >= 1) server.softMemoryLimit = bytes;
    else problems.push({ source: 'env FOLIO_SOFT_MEMORY_LIMIT', message: `must be a number of bytes or "false", got "${text}"` });
  }
  if (env.FOLIO_WORKERS) {
    const workers = workersOf(env.FOLIO_WORKERS);
    if (workers !== undefined) server.workers = workers;
    else problems.push({ source: 'env FOLIO_WORKERS', message: `${WORKERS_RANGE}, got "${env.FOLIO_WORKERS}"` });
  }
  return server;
}

function fromFlags({ host, port, workers }: ServerOverrides, problems: ConfigProblem[]): ServerOverrides {
  const server: ServerOverrides = workers === undefined ? {} : { workers };
  if (host !== undefined) {
    if (host.trim() !== '') server.host = host;
    else problems.push({ source: '--host', message: 'must not be empty' });
  }
  if (port !== undefined) {
    if (isPort(port)) server.port = port;
    else problems.push({ source: '--port', message: `${PORT_RANGE}, got ${port}` });
  }
  return server;
}

/**
 * Strapi 5 trusts the proxy when `proxy.koa` is true; `proxy: true` is how Strapi v4 said it (Strapi 5 reads only
 * `proxy.koa`, and leaves a bare `true` without effect), taken here for what it plainly means.
 */
function resolveProxy(proxy: ServerFile['proxy'], defaults: Server['proxy']): TrustedProxy | false {
  if (proxy === undefined) return defaults;
  const trusted = typeof proxy === 'boolean' ? proxy : proxy.koa === true;
  if (!trusted) return false;
  const { maxIpsCount = 0, ipHeader = 'X-Forwarded-For' } = typeof proxy === 'object' ? proxy : {};
  return { ipHeader: ipHeader.toLowerCase(), maxIpsCount };
}

/** Command-line flags beat `PORT`/`HOST`, which beat the server file, which beats the defaults. */
export function resolveServer(
  fromFile: ServerFile | undefined,
  defaults: Server,
  env: NodeJS.ProcessEnv,
  overrides: ServerOverrides,
  problems: ConfigProblem[],
): Server {
  const { proxy, metrics, ...address } = fromFile ?? {};
  return {
    ...defaults,
    ...address,
    proxy: resolveProxy(proxy, defaults.proxy),
    metrics: metrics === undefined ? defaults.metrics : metrics === true ? {} : metrics,
    ...fromEnv(env, problems),
    ...fromFlags(overrides, problems),
  };
}
