'use strict';
/**
 * The aggregation benchmark (`npm run bench -- --aggregation [--size 200000] [--writes N]`, issue 36):
 * on a seeded folder (bench/scale-seed.js), count + sum of views over a views range drawn afresh for
 * every request (about AGGREGATED_SHARE of the articles), on GraphQL and REST, and grouped by category
 * on both, each with autocannon at 50 connections; against the workaround a Strapi 5 client has today:
 * reading every matching document through REST pages of maxLimit and adding up (or grouping) in the
 * client, a few such clients (BENCH_WALKERS) walking complete ranges one page after another. Workloads
 * run in alternating rounds (BENCH_ROUNDS, 2; the median round of each is shown), and the table gives
 * p50, answers a second, and each aggregation's answers a second divided by its workaround's.
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { median, startFolioProcess, stop } = require('./folio-process');
const { seededFolder } = require('./scale-seed');
const { checkAnswers, measureWorkload } = require('./scale');
const { startWrites } = require('./scale-writes');

/** the share of the articles each request's views range holds (views are spread evenly over [0, viewsRange)) */
const AGGREGATED_SHARE = 0.075;
/** REST's maxLimit: the largest page the workaround may ask for */
const PAGE_SIZE = 100;
const TARGET_P50_MS = 20;
const TARGET_RATIO = 20;

/** A views range `[low, high)` holding about AGGREGATED_SHARE of the articles, drawn at random. */
const rangeDrawer = (viewsRange) => {
  const width = Math.max(1, Math.round(viewsRange * AGGREGATED_SHARE));
  return () => {
    const low = Math.floor(Math.random() * (viewsRange - width + 1));
    return { low, high: low + width };
  };
};

const post = (query, variables) => ({ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
const restFilter = ({ low, high }) => `filters[views][$gte]=${low}&filters[views][$lt]=${high}`;
const REST_AGGREGATES = 'aggregate[count]=*&aggregate[sum][0]=views';

const AGGREGATE = 'query($low: Int, $high: Int) { articles_connection(filters: { views: { gte: $low, lt: $high } }) { aggregate { count sum { views } } } }';
const GROUPED =
  'query($low: Int, $high: Int) { articles_connection(filters: { views: { gte: $low, lt: $high } }) { groupBy { category(pagination: { limit: 100 }) { key connection { aggregate { count sum { views } } } } } } }';

/** one `{ key, count, sum }` per category, sorted by key: what each way of grouping must agree on */
const sortedGroups = (groups) => [...groups].sort((a, b) => String(a.key).localeCompare(String(b.key)));

const answerOf = {
  graphqlTotal: (body) => ({ count: body.data.articles_connection.aggregate.count, sum: body.data.articles_connection.aggregate.sum.views }),
  restTotal: (body) => ({ count: body.data[0].count, sum: body.data[0].sum.views }),
  graphqlGroups: (body) =>
    sortedGroups(body.data.articles_connection.groupBy.category.map(({ key, connection }) => ({ key, count: connection.aggregate.count, sum: connection.aggregate.sum.views }))),
  restGroups: (body) => sortedGroups(body.data.map(({ group, count, sum }) => ({ key: group.category, count, sum: sum.views }))),
};

/**
 * autocannon's timeout for the aggregations: at 50 connections, answers queued behind slow aggregations took more
 * than its default 10 s (200,000 articles, a shared machine), which would fail the run instead of measuring them
 */
const TIMEOUT_SECONDS = 120;

/** The four aggregation workloads, in scale-workloads' shape, each with the answer it computes from a range. */
const aggregationWorkloads = (draw) =>
  [
    { name: 'GraphQL aggregate count + sum', graphql: true, request: (range = draw()) => post(AGGREGATE, range), answer: answerOf.graphqlTotal, matches: (body) => answerOf.graphqlTotal(body).count > 0 },
    {
      name: 'REST aggregate count + sum',
      request: (range = draw()) => ({ method: 'GET', path: `/api/articles?${restFilter(range)}&${REST_AGGREGATES}` }),
      answer: answerOf.restTotal,
      matches: (body) => answerOf.restTotal(body).count > 0,
    },
    { name: 'GraphQL groupBy category', graphql: true, request: (range = draw()) => post(GROUPED, range), answer: answerOf.graphqlGroups, matches: (body) => answerOf.graphqlGroups(body).length > 1 },
    {
      name: 'REST groupBy category',
      request: (range = draw()) => ({ method: 'GET', path: `/api/articles?${restFilter(range)}&${REST_AGGREGATES}&groupBy[0]=category` }),
      answer: answerOf.restGroups,
      matches: (body) => answerOf.restGroups(body).length > 1,
    },
  ].map((workload) => ({ ...workload, timeout: TIMEOUT_SECONDS }));

const getJson = async (url) => {
  const response = await fetch(url);
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
};

/**
 * The workarounds: every document of the range read through REST pages of PAGE_SIZE, one page after
 * another, only the fields needed (views; views and the category's documentId to group), added up in the client.
 */
const walks = {
  total: {
    name: 'workaround: REST pages, sum in the client',
    query: 'fields[0]=views',
    fold: (documents) => ({ count: documents.length, sum: documents.reduce((sum, { views }) => sum + views, 0) }),
  },
  groups: {
    name: 'workaround: REST pages, group in the client',
    query: 'fields[0]=views&populate[category][fields][0]=documentId',
    fold: (documents) => {
      const groups = new Map();
      for (const { views, category } of documents) {
        const key = category?.documentId ?? null;
        const group = groups.get(key) ?? { key, count: 0, sum: 0 };
        group.count += 1;
        group.sum += views;
        groups.set(key, group);
      }
      return sortedGroups(groups.values());
    },
  },
};

/** One complete walk of `range`: `{ answer, pages }`. */
const walkOnce = async (url, walk, range) => {
  const documents = [];
  let pages = 0;
  for (let page = 1; ; page += 1) {
    const body = await getJson(`${url}/api/articles?${restFilter(range)}&${walk.query}&pagination[pageSize]=${PAGE_SIZE}&pagination[page]=${page}`);
    documents.push(...body.data);
    pages += 1;
    if (page >= body.meta.pagination.pageCount) break;
  }
  return { answer: walk.fold(documents), pages };
};

/**
 * `walkers` clients, each walking fresh ranges until `duration` seconds have passed (a walk under way
 * is finished): answers a second over the time until the last walk ended, and the median walk's ms.
 */
const measureWalks = async (url, walk, draw, { walkers, duration }) => {
  const started = performance.now();
  const times = [];
  let pages = 0;
  const walker = async () => {
    while (performance.now() - started < duration * 1000) {
      const begun = performance.now();
      const done = await walkOnce(url, walk, draw());
      times.push(performance.now() - begun);
      pages += done.pages;
    }
  };
  await Promise.all(Array.from({ length: walkers }, walker));
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return { name: walk.name, rps: times.length / seconds, p50: Math.round(times[Math.floor((times.length - 1) / 2)]), answered: times.length, pagesPerAnswer: pages / times.length };
};

/** requests asked one after another, each its own range, for the time one answer takes when none waits in line */
const ALONE_REQUESTS = 30;

/** The median ms of ALONE_REQUESTS requests of `workload` sent one at a time (after three to warm up). */
const measureAlone = async (url, workload) => {
  const times = [];
  for (let index = 0; index < ALONE_REQUESTS + 3; index += 1) {
    const { method, path, headers, body } = workload.request();
    const begun = performance.now();
    const response = await fetch(`${url}${path}`, { method, headers, body });
    const text = await response.text();
    if (!response.ok || !workload.matches(JSON.parse(text))) throw new Error(`${workload.name} answered ${response.status}: ${text.slice(0, 300)}`);
    if (index >= 3) times.push(performance.now() - begun);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor((times.length - 1) / 2)];
};

/** The same range asked of every aggregation workload and walked: all must give the same answer. */
const checkAgreement = async (url, workloads, draw) => {
  const range = draw();
  const expected = { total: (await walkOnce(url, walks.total, range)).answer, groups: (await walkOnce(url, walks.groups, range)).answer };
  for (const [index, workload] of workloads.entries()) {
    const { method, path, headers, body } = workload.request(range);
    const answer = workload.answer(await (await fetch(`${url}${path}`, { method, headers, body })).json());
    const wanted = index < 2 ? expected.total : expected.groups;
    if (JSON.stringify(answer) !== JSON.stringify(wanted)) throw new Error(`${workload.name} answered ${JSON.stringify(answer)} for views in [${range.low}, ${range.high}), the pages add up to ${JSON.stringify(wanted)}`);
  }
  return { range, expected };
};

const number = (value) => Math.round(value).toLocaleString('en-US');
/** answers a second: whole numbers from 100, else two significant digits or more (3 answers/s against 0.16) */
const rate = (value) => (value >= 100 ? number(value) : value.toFixed(value >= 10 ? 1 : 2));
const mark = (met) => (met ? 'yes' : 'no');

const report = ({ size, duration, writes, rounds, walkers, agreement, rows, alone }) => {
  const [graphqlTotal, restTotal, graphqlGroups, restGroups, walkTotal, walkGroups] = rows;
  const against = [
    [graphqlTotal, walkTotal],
    [restTotal, walkTotal],
    [graphqlGroups, walkGroups],
    [restGroups, walkGroups],
  ];
  const lines = [
    `### Aggregation, ${number(size)} articles: autocannon -c 50 -d ${duration}${writes > 0 ? `, ${writes} writes/s` : ''}, median of ${rounds} alternating rounds, ${new Date().toISOString()}`,
    '',
    `Each request a views range of ${number(agreement.range.high - agreement.range.low)} values drawn afresh: about ${(AGGREGATED_SHARE * 100).toFixed(1)} % of the articles (the check's range [${agreement.range.low}, ${agreement.range.high}) held ${number(agreement.expected.total.count)} of ${number(size)}, ${((agreement.expected.total.count / size) * 100).toFixed(1)} %; every way of asking agreed on count, sum and groups). Workaround: ${walkers} clients, each walking a whole range through REST pages of ${PAGE_SIZE}, one page after another (${walkTotal.pagesPerAnswer.toFixed(1)} pages an answer).`,
    '',
    `p50 alone: the median of ${ALONE_REQUESTS} requests sent one at a time, each its own range (what one answer takes); at 50 connections p50 is mostly the wait in line, about 50 ÷ answers a second.`,
    '',
    '| workload | p50 alone ms | p50 ms, c = 50 | answers/s | vs its workaround | p50 alone ≤ 20 ms | ≥ 20× |',
    '| --- | ---: | ---: | ---: | ---: | :---: | :---: |',
    ...against.map(([row, walk], index) => {
      const ratio = row.rps / walk.rps;
      // nothing answered within the run: no latency to show, and no target met
      const p50 = row.answered > 0 ? String(row.p50) : '—';
      return `| ${row.name} | ${alone[index].toFixed(1)} | ${p50} | ${rate(row.rps)} | ${ratio.toFixed(1)}× | ${mark(alone[index] <= TARGET_P50_MS)} | ${mark(ratio >= TARGET_RATIO)} |`;
    }),
    ...[walkTotal, walkGroups].map((walk) => `| ${walk.name} |  | ${number(walk.p50)} | ${rate(walk.rps)} | 1× |  |  |`),
    ...(rows.some(({ answered }) => answered === 0) ? ['', '— : no request was answered during the run'] : []),
  ];
  return lines;
};

/** Seeds (or reuses) the folder for `size` articles, starts Folio on it and measures. */
const runAggregation = async ({ size, writes }) => {
  const root = mkdtempSync(join(tmpdir(), 'folio-aggregation-'));
  const cache = process.env.BENCH_SCALE_CACHE ?? root;
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
  const walkers = Number(process.env.BENCH_WALKERS ?? 4);
  let folio;
  try {
    const { configDir, dataDir, manifest } = await seededFolder(join(cache, String(size)), size);
    folio = await startFolioProcess('bin/folio.js', configDir, dataDir);
    const draw = rangeDrawer(manifest.viewsRange);
    const workloads = aggregationWorkloads(draw);
    const agreement = await checkAgreement(folio.url, workloads, draw);
    for (const workload of workloads) await checkAnswers(folio.url, workload);
    const alone = [];
    for (const workload of workloads) alone.push(await measureAlone(folio.url, workload));
    const measurements = workloads.map((workload) => ({ name: workload.name, run: () => measureWorkload(folio.url, workload, manifest, { writes, duration }) }));
    for (const walk of [walks.total, walks.groups]) {
      measurements.push({
        name: walk.name,
        run: async () => {
          const writer = startWrites(folio.url, manifest, writes);
          try {
            return await measureWalks(folio.url, walk, draw, { walkers, duration });
          } finally {
            const written = await writer.stop();
            if (written.failures.length > 0) throw new Error(`${walk.name}: ${written.failures.length} of ${written.sent} writes failed, the first: ${written.failures[0]}`);
          }
        },
      });
    }
    const results = measurements.map(() => []);
    for (let round = 0; round < rounds; round += 1) {
      const order = measurements.map((_, index) => index);
      // alternate the order of the workloads from one round to the next, so none always runs first
      for (const index of round % 2 === 0 ? order : order.reverse()) {
        process.stderr.write(`aggregation, round ${round + 1}: ${measurements[index].name}\n`);
        results[index].push(await measurements[index].run());
      }
    }
    const rows = results.map((list) => median(list));
    for (const line of ['', ...report({ size, duration, writes, rounds, walkers, agreement, rows, alone })]) console.log(line);
  } finally {
    await stop(folio);
    rmSync(root, { recursive: true, force: true });
  }
};

module.exports = { runAggregation };
