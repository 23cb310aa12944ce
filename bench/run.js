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
 *
 *   npm run bench -- --size 20000 [--sizes 1000,50000] [--writes 20]   # the scale mode instead (bench/scale.js)
 *   npm run bench -- --aggregation [--size 200000] [--writes 0]   # count + sum and group by category against
 *                                 # adding up REST pages in the client (bench/aggregation.js, issue 36)
 *   npm run bench -- --peer postgraphile [--size 50000] [--writes 20]   # Folio beside PostGraphile 5 on a temporary
 *                                 # PostgreSQL cluster, same data, alternating rounds (bench/peer.js, issue 33)
 *   npm run bench -- --peer workers [--size 50000] [--writes 20]   # Folio's default against `server.workers: 1`
 */
const { mkdtempSync, mkdirSync, rmSync, existsSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { parseArgs } = require('node:util');
const { buildBaseline } = require('./baseline');
const { securityFigures } = require('./security');
const { eventFigures } = require('./events');
const { runScale } = require('./scale');
const { runAggregation } = require('./aggregation');
const { runPeer, PEERS } = require('./peer');
const { assertBuilt, CONNECTIONS, TOKEN, startProcess, stop, gql, writeConfig, startFolioProcess, seedRelations, measure: measureFor, median } = require('./folio-process');
const { pipelineFigures } = require('./pipeline-workloads');

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** alternating rounds per workload when a baseline is measured (BENCH_ROUNDS) */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const seed = async (url) => {
  const related = await seedRelations(url);
  const [categories, tags, authors] = [related.categories, related.tags, related.authors].map((documents) => documents.map(({ documentId }) => documentId));
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

const measure = (name, options) => measureFor(name, options, DURATION);

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

/** A Folio from `bin`, in production mode, with data under `root`/`name`, seeded unless `seeded: false`. */
const startFolio = async (bin, root, name, { extra, seeded = true } = {}) => {
  const dir = join(root, name);
  mkdirSync(dir);
  const folio = await startFolioProcess(bin, writeConfig(dir, extra), join(dir, 'data'));
  if (seeded) {
    process.stderr.write(`seeding 1,000 articles (${name})…\n`);
    await seed(folio.url);
  }
  return folio;
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
    console.log(`\nautocannon -c ${CONNECTIONS} -d ${DURATION}, ${new Date().toISOString()}${baselineRef ? `; baseline ${baselineRef}, lower median of ${ROUNDS} alternating rounds` : ''}`);
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
      for (const line of await pipelineFigures({ root, startFolioProcess, seed, stop, measure, token: TOKEN })) console.log(line);
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

/** enough articles for every search term to be in a few titles */
const MIN_SIZE = 100;
const USAGE = 'usage: npm run bench [-- --size N | --sizes N,N,… [--writes N] | --aggregation [--size N] [--writes N] | --peer postgraphile|workers [--size N] [--writes N]]';
/** the sizes and writes of the modes that take one size, when the command line names none */
const MODE_DEFAULTS = { aggregation: { size: 200000, writes: 0 }, peer: { size: 50000, writes: 20 } };

/** a mistake on the command line: shown as its message alone */
class UsageError extends Error {
  constructor(message) {
    super(`${message}\n${USAGE}`);
  }
}

const wholeNumber = (flag, text, least) => {
  const value = Number(text);
  if (text === '' || !Number.isInteger(value) || value < least) throw new UsageError(`${flag} takes a whole number of at least ${least}, not "${text}"`);
  return value;
};

/**
 * The mode the command line asks for: undefined for the default run, `{ mode: 'scale', sizes, writes }`,
 * `{ mode: 'aggregation', size, writes }` or `{ mode: 'peer', peer, size, writes }`.
 */
const modeArguments = (args) => {
  let values;
  try {
    ({ values } = parseArgs({ args, options: { size: { type: 'string' }, sizes: { type: 'string' }, writes: { type: 'string' }, aggregation: { type: 'boolean' }, peer: { type: 'string' } } }));
  } catch (error) {
    throw new UsageError(error.message);
  }
  if (args.length === 0) return undefined;
  const writes = values.writes === undefined ? undefined : wholeNumber('--writes', values.writes, 0);
  const oneMode = values.aggregation ? 'aggregation' : values.peer !== undefined ? 'peer' : undefined;
  if (values.aggregation && values.peer !== undefined) throw new UsageError('--aggregation and --peer are separate runs');
  if (oneMode) {
    if (values.sizes !== undefined) throw new UsageError(`--${oneMode} takes one --size`);
    if (oneMode === 'peer' && !PEERS.includes(values.peer)) throw new UsageError(`--peer takes one of ${PEERS.join(', ')}, not "${values.peer}"`);
    const size = values.size === undefined ? MODE_DEFAULTS[oneMode].size : wholeNumber('--size', values.size.trim(), MIN_SIZE);
    return { mode: oneMode, peer: values.peer, size, writes: writes ?? MODE_DEFAULTS[oneMode].writes };
  }
  if (values.size === undefined && values.sizes === undefined) throw new UsageError('--writes needs --size or --sizes');
  const sizes = [...(values.size === undefined ? [] : [values.size]), ...(values.sizes?.split(',') ?? [])].map((text) => wholeNumber('--size', text.trim(), MIN_SIZE));
  return { mode: 'scale', sizes: [...new Set(sizes)], writes: writes ?? 0 };
};

const runMode = (chosen) => {
  if (chosen.mode === 'aggregation') return runAggregation(chosen);
  if (chosen.mode === 'peer') return runPeer(chosen);
  return runScale(chosen);
};

Promise.resolve()
  .then(() => {
    const chosen = modeArguments(process.argv.slice(2));
    assertBuilt();
    return chosen ? runMode(chosen) : main();
  })
  .catch((error) => {
    console.error(error instanceof UsageError ? error.message : error);
    process.exit(1);
  });
