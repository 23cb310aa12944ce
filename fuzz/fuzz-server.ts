import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultPlugins, PRODUCTION_ENV } from '../test/support/test-server';
import { productionNodeArgs, startServerProcess, writeConfigFiles, type ServerProcess } from '../test/support/server-process';
import { rawRequest } from '../test/support/raw-http';
import type { FuzzAnswer, FuzzRequest } from './fuzz-request';

/**
 * The server under fuzz: Folio in production mode in a process of its own (so a crash is seen), with the V8 flags
 * production runs with (bin/folio.js),
 * with known content, an admin token for the write paths, a digest of everything it stores, and
 * `/metrics` behind a token, for the event loop's delay.
 */

export const ADMIN_TOKEN = 'fuzz-admin-token-0123456789abcdef0123';
/** behind a token: a fuzzed request to `/metrics` would otherwise start a new lag window and hide a stall */
const METRICS_TOKEN = 'fuzz-metrics-token-0123456789abcdef';
const LAG_GAUGE = '\nnodejs_eventloop_lag_max_seconds ';
const RSS_GAUGE = '\nprocess_resident_memory_bytes ';
export const SERVER_ROOT = resolve(__dirname, '..');
const TIMEOUT_MS = 10_000;
const CONTENT = ['articles', 'categories', 'tags', 'authors'];

export interface FuzzServer {
  process: ServerProcess;
  documentIds: string[];
  send(request: FuzzRequest): Promise<FuzzAnswer>;
  /** a hash of every content document, drafts included */
  digest(): Promise<string>;
  /** the event loop's longest delay since the previous call, in seconds, and the process's resident memory, in bytes */
  vitals(): Promise<Vitals>;
  stop(): Promise<void>;
}

/**
 * Long titles (16 to 100 KB), so that sorts by title compare and copy large values: most share a long
 * prefix and differ only at their end, where a comparison reaches last; some are not ASCII. Only the
 * four shortest are tagged (alpha), so relation lists sort long values too while the digest, which reads
 * each tag with its articles, stays near a megabyte: it runs before and after every admin write.
 */
const LONG_TITLES = Array.from({ length: 8 }, (_, index) => {
  const kilobytes = 16 + index * 12;
  const unit = index % 3 === 2 ? 'é😀 Ünïcödé title ' : 'Long title ';
  return `${unit.repeat(Math.ceil((kilobytes * 1024) / Buffer.byteLength(unit)))}${index}`;
});

/** One gauge of Prometheus' text by its line (`\nname `): found with indexOf, the text (tens of KB) is not parsed whole. */
const gaugeValue = (text: string, line: string): number => {
  const at = text.indexOf(line);
  if (at < 0) throw new Error(`no ${line.trim()} in /metrics`);
  const start = at + line.length;
  const end = text.indexOf('\n', start);
  return Number(text.slice(start, end < 0 ? undefined : end));
};

export interface Vitals {
  /** seconds */
  lag: number;
  /** bytes */
  rss: number;
}

export const startFuzzServer = async (): Promise<FuzzServer> => {
  const root = mkdtempSync(join(tmpdir(), 'folio-fuzz-'));
  const configDir = join(root, 'config');
  mkdirSync(configDir);
  const publicReads = ['find', 'findOne'].flatMap((action) => ['article', 'category', 'tag', 'author'].map((name) => `api::${name}.${name}.${action}`));
  writeConfigFiles(configDir, {
    plugins: defaultPlugins({
      'users-permissions': { config: { roles: { public: { permissions: [...publicReads, 'api::homepage.homepage.find', 'plugin::upload.content-api.find'] } }, rateLimit: { max: 1_000_000, windowMs: 60_000 } } },
    }),
    admin: { apiTokens: [{ name: 'fuzz-admin', type: 'full-access', accessKey: ADMIN_TOKEN }] },
    server: { metrics: { token: METRICS_TOKEN } },
  });
  const process = await startServerProcess({ configDir, dataDir: join(root, 'data'), env: PRODUCTION_ENV, nodeArgs: productionNodeArgs() });
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

  const send = async (request: FuzzRequest): Promise<FuzzAnswer> => {
    const started = Date.now();
    if (request.kind === 'raw') {
      const answer = await rawRequest(process.url, request.text, TIMEOUT_MS);
      return { status: answer.timedOut ? 0 : answer.status, body: answer.body, ms: Date.now() - started };
    }
    try {
      const response = await fetch(`${process.url}${request.path}`, {
        method: request.method,
        headers: { ...request.headers, ...(request.asAdmin ? admin : {}) },
        body: request.body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const body = await response.text();
      return { status: response.status, body, ms: Date.now() - started };
    } catch {
      return { status: 0, body: '', ms: Date.now() - started };
    }
  };

  const post = async (path: string, data: Record<string, unknown>): Promise<string> => {
    const response = await fetch(`${process.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...admin }, body: JSON.stringify({ data }) });
    if (response.status !== 201) throw new Error(`seeding ${path}: HTTP ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: { documentId: string } }).data.documentId;
  };
  const category = await post('/api/categories', { name: 'News' });
  const tags = [await post('/api/tags', { name: 'alpha' }), await post('/api/tags', { name: 'beta' })];
  const author = await post('/api/authors', { name: 'Ada', email: 'ada@example.com' });
  const documentIds: string[] = [category, ...tags, author];
  for (const [index, title] of LONG_TITLES.entries()) {
    documentIds.push(await post(`/api/articles${index % 2 ? '?status=draft' : ''}`, { title, views: 100 + index, tags: index < 4 ? [tags[0]] : [] }));
  }
  for (let index = 0; index < 8; index += 1) {
    documentIds.push(
      await post(`/api/articles${index % 2 ? '?status=draft' : ''}`, {
        title: `Article ${index}`,
        views: index,
        extra: { index },
        category,
        tags,
        author,
        seo: { metaTitle: `meta ${index}`, keywords: [{ value: 'k' }] },
        sections: [{ __component: 'shared.quote', text: `quote ${index}` }],
      }),
    );
  }

  const digest = async () => {
    const hash = createHash('sha256');
    for (const collection of CONTENT) {
      for (const status of ['draft', 'published']) {
        // pages of 50: populate=* on a page of 100 is over the cost limit
        for (let page = 1; ; page += 1) {
          const response = await fetch(`${process.url}/api/${collection}?status=${status}&pagination[page]=${page}&pagination[pageSize]=50&sort=id&populate=*`, { headers: admin });
          const text = await response.text();
          if (response.status !== 200) throw new Error(`reading ${collection} for the digest: HTTP ${response.status} ${text}`);
          hash.update(text);
          if ((JSON.parse(text) as { data: unknown[] }).data.length < 50) break;
        }
      }
    }
    return hash.digest('hex');
  };

  const vitals = async (): Promise<Vitals> => {
    const response = await fetch(`${process.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET /metrics: HTTP ${response.status} ${text.slice(0, 300)}`);
    return { lag: gaugeValue(text, LAG_GAUGE), rss: gaugeValue(text, RSS_GAUGE) };
  };

  return {
    process,
    documentIds,
    send,
    digest,
    vitals,
    async stop() {
      await process.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
};
