'use strict';
/**
 * Throughput of Folio against a bare node:http server measured in the same run (figures drift
 * between runs and machines; ratios don't, much). Seeds 1,000 published articles, each with a
 * category, 3 tags and an author, then runs every workload with autocannon.
 *
 *   npm run bench                # all workloads, 10 s each
 *   BENCH_DURATION=5 npm run bench
 *   BENCH_FILTER=GraphQL npm run bench   # only the workloads whose name matches
 *   BENCH_BASELINE=<git ref> npm run bench   # the same workloads on an earlier build too, in alternating rounds (BENCH_ROUNDS, 4)
 *
 * Then the figures of the security defences (bench/security.js), unless BENCH_FILTER leaves them out.
 */
const { spawn } = require('node:child_process');
const { mkdtempSync, mkdirSync, writeFileSync, rmSync, existsSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { buildBaseline } = require('./baseline');
const { securityFigures } = require('./security');
const { eventFigures } = require('./events');
const { pipelineFigures } = require('./pipeline-workloads');

const ROOT = join(__dirname, '..');
const TOKEN = 'bench-full-access-token-0123456789';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
/** alternating rounds per workload when a baseline is measured (BENCH_ROUNDS) */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const median = (results) => [...results].sort((a, b) => a.rps - b.rps)[Math.floor((results.length - 1) / 2)];

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

const seed = async (url) => {
  const categories = [];
  for (let index = 0; index < 10; index += 1) {
    categories.push((await gql(url, 'mutation($n: String!) { createCategory(data: { name: $n }) { documentId } }', { n: `Category ${index}` })).createCategory.documentId);
  }
  const tags = [];
  for (let index = 0; index < 30; index += 1) {
    tags.push((await gql(url, 'mutation($n: String!) { createTag(data: { name: $n }) { documentId } }', { n: `Tag ${index}` })).createTag.documentId);
  }
  const authors = [];
  for (let index = 0; index < 20; index += 1) {
    authors.push((await gql(url, 'mutation($n: String!) { createAuthor(data: { name: $n }) { documentId } }', { n: `Author ${index}` })).createAuthor.documentId);
  }
  const create = 'mutation($d: ArticleInput!) { createArticle(data: $d) { documentId } }';
  for (let start = 0; start < 1000; start += 25) {
    await Promise.all(
      Array.from({ length: 25 }, (_, offset) => {
        const index = start + offset;
        return gql(url, create, {
          d: {
            title: index % 10 === 0 ? `foo article ${index}` : `Article ${index}`,
            views: index,
            category: categories[index % categories.length],
            tags: [0, 1, 2].map((shift) => tags[(index + shift * 7) % tags.length]),
            author: authors[index % authors.length],
          },
        });
      }),
    );
  }
};

const measure = (name, options) =>
  new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...options }, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      resolve({ name, rps: result.requests.average, p99: result.latency.p99 });
    });
  });

const workloads = (url) => {
  const listQuery = '{ articles(pagination: {pageSize: 10}) { documentId title category { name } tags { name } } }';
  const list = [
    {
      name: 'GraphQL articles list (POST)',
      url: `${url}/graphql`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: listQuery }),
    },
  ];
  const restWorkloads = join(__dirname, 'rest-workloads.js');
  if (existsSync(restWorkloads)) {
    for (const workload of require(restWorkloads)) list.push({ name: workload.name, url: `${url}${workload.path}`, method: 'GET' });
  }
  return list;
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

/** A Folio from `bin`, in production mode, with data under `root`/`name`, seeded unless `seeded: false`. */
const startFolio = async (bin, root, name, { extra, seeded = true } = {}) => {
  const dir = join(root, name);
  mkdirSync(dir);
  // BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server under load.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const folio = await startProcess([...nodeArgs, bin, 'start', '--config', writeConfig(dir, extra), '--data', join(dir, 'data'), '--port', '0'], {
    NODE_ENV: 'production',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    API_TOKEN_SALT: 'bench-salt-bench-salt-bench-salt',
  });
  if (seeded) {
    process.stderr.write(`seeding 1,000 articles (${name})…\n`);
    await seed(folio.url);
  }
  return folio;
};

const stop = async (running) => {
  if (!running) return;
  running.child.kill('SIGTERM');
  await new Promise((resolve) => running.child.once('exit', resolve));
};

const main = async () => {
  const root = mkdtempSync(join(tmpdir(), 'folio-bench-'));
  const only = new RegExp(process.env.BENCH_FILTER ?? '', 'i');
  const baselineRef = process.env.BENCH_BASELINE;
  const baselineBuild = baselineRef ? buildBaseline(baselineRef) : undefined;
  let bare;
  let folio;
  let baseline;
  try {
    bare = await startProcess([join(__dirname, 'bare-server.js')]);
    folio = await startFolio('bin/folio.js', root, 'folio');
    if (baselineBuild) baseline = await startFolio(baselineBuild.bin, root, 'baseline');
    const bareResult = await measure('bare node:http, fixed JSON', { url: bare.url });
    const rows = [{ result: bareResult }];
    for (const workload of workloads(folio.url).filter((candidate) => only.test(candidate.name))) {
      const before = baseline && { ...workload, url: workload.url.replace(folio.url, baseline.url) };
      await measure(`${workload.name} (warm-up)`, { ...workload, duration: 2 });
      if (!before) {
        rows.push({ result: await measure(workload.name, workload) });
        continue;
      }
      await measure(`${workload.name} (warm-up, baseline)`, { ...before, duration: 2 });
      // rounds in A B B A order, so neither build always runs first; the median round of each is shown
      const current = [];
      const earlier = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const pair = [() => measure(workload.name, workload).then((result) => current.push(result)), () => measure(`${workload.name} (baseline)`, before).then((result) => earlier.push(result))];
        for (const run of round % 2 === 0 ? pair : [...pair].reverse()) await run();
      }
      rows.push({ result: median(current), before: median(earlier) });
    }
    console.log(`\nautocannon -c ${CONNECTIONS} -d ${DURATION}, ${new Date().toISOString()}${baselineRef ? `; baseline ${baselineRef}, median of ${ROUNDS} alternating rounds` : ''}`);
    const percent = (rps) => `${((rps / bareResult.rps) * 100).toFixed(1)}%`;
    console.log(baseline ? '| workload | req/s | p99 ms | vs bare | baseline req/s | baseline vs bare | change |' : '| workload | req/s | p99 ms | vs bare |');
    console.log(baseline ? '| --- | ---: | ---: | ---: | ---: | ---: | ---: |' : '| --- | ---: | ---: | ---: |');
    for (const { result, before } of rows) {
      const cells = [result.name, Math.round(result.rps), result.p99, percent(result.rps)];
      if (baseline) cells.push(...(before ? [Math.round(before.rps), percent(before.rps), `${(((result.rps - before.rps) / before.rps) * 100).toFixed(1)}%`] : ['', '', '']));
      console.log(`| ${cells.join(' | ')} |`);
    }
    if (only.test('content events')) {
      console.log('');
      for (const line of await eventFigures({ root, startFolio, stop, measure, token: TOKEN })) console.log(line);
    }
    if (only.test('pipeline')) {
      console.log('');
      for (const line of await pipelineFigures({ root, startProcess, seed, stop, measure, token: TOKEN })) console.log(line);
    }
    if (only.test('security defences')) {
      console.log('');
      for (const line of await securityFigures(folio.url, folio.child.pid, baseline && { url: baseline.url, pid: baseline.child.pid })) console.log(line);
    }
  } finally {
    bare?.child.kill();
    await stop(folio);
    await stop(baseline);
    baselineBuild?.remove();
    rmSync(root, { recursive: true, force: true });
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
