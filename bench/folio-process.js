'use strict';
/**
 * What both benchmark modes need to run Folio and talk to it: a server process started from a
 * build and its address, its configuration (a full-access token, public reads), GraphQL calls,
 * the related documents every article points to, autocannon measurements and the process's RSS.
 */
const { spawn } = require('node:child_process');
const { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const autocannon = require('autocannon');
const { childrenOf } = require('./cpu-time');

const ROOT = join(__dirname, '..');
const TOKEN = 'bench-full-access-token-0123456789';
const CONNECTIONS = 50;
const FOLIO_ENV = {
  NODE_ENV: 'production',
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
  API_TOKEN_SALT: 'bench-salt-bench-salt-bench-salt',
};

/** Spawns `node args…` and resolves with the first http:// address it prints. */
const startProcess = (args, env = {}) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /(http:\/\/[^\s]+)/.exec(output);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });

const stop = async (running) => {
  if (!running || running.child.exitCode !== null) return;
  running.child.kill('SIGTERM');
  await new Promise((resolve) => running.child.once('exit', resolve));
};

const gql = async (url, query, variables) => {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
};

/** `extra`: more config files by name (`webhooks`), and more API tokens (`apiTokens`) */
const writeConfig = (root, extra = {}) => {
  const configDir = join(root, 'config');
  mkdirSync(configDir);
  const { apiTokens = [], ...files } = extra;
  writeFileSync(join(configDir, 'admin.json'), JSON.stringify({ apiTokens: [{ name: 'bench', type: 'full-access', accessKey: TOKEN }, ...apiTokens] }));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(configDir, `${name}.json`), JSON.stringify(content));
  writeFileSync(
    join(configDir, 'plugins.json'),
    JSON.stringify({
      'users-permissions': {
        config: { roles: { public: { permissions: ['article', 'category', 'tag', 'author'].flatMap((n) => [`api::${n}.${n}.find`, `api::${n}.${n}.findOne`]) } } },
      },
    }),
  );
  return configDir;
};

/** The Node.js flags `bin`'s first line starts it with (`#!/usr/bin/env -S node <flags>`): Folio runs as users start it. */
const shebangFlags = (bin) => {
  const [first] = readFileSync(resolve(ROOT, bin), 'utf8').split('\n', 1);
  return (/^#!.*\bnode\b(.*)$/.exec(first)?.[1] ?? '').split(' ').filter(Boolean);
};

/** Folio from `bin` in production mode, on a free port, with its config in `configDir` and data in `dataDir` (and `flags` of `folio start`). */
const startFolioProcess = (bin, configDir, dataDir, flags = []) => {
  // BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server under load.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  return startProcess([...shebangFlags(bin), ...nodeArgs, bin, 'start', '--config', configDir, '--data', dataDir, '--port', '0', ...flags], FOLIO_ENV);
};

/** 10 categories, 30 tags and 20 authors, created through GraphQL: `{ categories, tags, authors }`, each `[{ documentId, name }]`. */
const seedRelations = async (url) => {
  const create = async (type, label, count) => {
    const created = [];
    for (let index = 0; index < count; index += 1) {
      const name = `${label} ${index}`;
      const data = await gql(url, `mutation($n: String!) { create${type}(data: { name: $n }) { documentId } }`, { n: name });
      created.push({ documentId: data[`create${type}`].documentId, name });
    }
    return created;
  };
  return { categories: await create('Category', 'Category', 10), tags: await create('Tag', 'Tag', 30), authors: await create('Author', 'Author', 20) };
};

/**
 * Runs autocannon at `CONNECTIONS` for `duration` seconds; any non-2xx answer or error fails it.
 * Resolves with `{ name, rps, p50, p99, answered }` (latencies in ms, `answered` requests in all).
 */
const measure = (name, options, duration) =>
  new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration, ...options }, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      resolve({ name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, answered: result.requests.total });
    });
  });

/**
 * The median of autocannon results by req/s, the lower of the two middle ones when their number is even
 * (of two rounds, the slower): the round shown when a workload is measured in several.
 */
const median = (results) => [...results].sort((a, b) => a.rps - b.rps)[Math.floor((results.length - 1) / 2)];

/** Resident memory of a process, in bytes. */
const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

/** Resident memory of a process and its descendants (a primary and its worker processes): `{ bytes, processes }`. */
const groupRssOf = (pid) =>
  childrenOf(pid).reduce(
    (sum, child) => {
      const group = groupRssOf(child);
      return { bytes: sum.bytes + group.bytes, processes: sum.processes + group.processes };
    },
    { bytes: rssOf(pid), processes: 1 },
  );

/** the newest modification time under `dir` of the files whose name ends with `suffix` */
const newest = (dir, suffix) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .reduce((latest, entry) => Math.max(latest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs), 0);

/**
 * Fails when this checkout's build is older than its source: `node bench/run.js` does not build (`npm run bench`
 * does), and a measured `dist/` a build behind its tree once passed for the commit it was not.
 */
const assertBuilt = () => {
  const built = newest(join(ROOT, 'dist/src'), '.js');
  if (newest(join(ROOT, 'src'), '.ts') > built) throw new Error('dist/ is older than src/: run `npm run build` (or `npm run bench`, which builds first)');
};

module.exports = { assertBuilt, ROOT, TOKEN, CONNECTIONS, startProcess, stop, gql, writeConfig, startFolioProcess, seedRelations, measure, median, rssOf, groupRssOf };
