'use strict';
/**
 * The peer benchmark (issue 33): Folio beside another server in the same run, on the same data, each
 * workload measured on both in alternating rounds (A B, B A, …; BENCH_ROUNDS, 2), each round with its own
 * background writes (`--writes`, 20 a second by default) sent to the server measured, and bare node:http
 * measured before, halfway and after, as the scale mode does.
 *
 *   --peer postgraphile: PostGraphile 5 (bench/postgraphile-server.js, installed from npm into a temporary
 *     folder) on a temporary PostgreSQL cluster (bench/postgres-cluster.js) holding the seeded folder's
 *     published articles, categories, tags and authors, copied out of Folio's store: the blog shape with
 *     B-tree indexes on the foreign keys and a pg_trgm GIN index on articles.title. GraphQL workloads only.
 *   --peer workers: Folio with `server: { workers: 1 }` against Folio's default (or `--workers $BENCH_WORKERS`),
 *     each on its own copy of the folder; each Folio's resident memory at the end, its worker processes included.
 *
 * A server that cannot run here (no PostgreSQL, no `server.workers` key in this build) is skipped with a line saying why.
 */
const { execFileSync } = require('node:child_process');
const { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { groupRssOf, measure, median, startFolioProcess, startProcess, stop, writeConfig } = require('./folio-process');
const { seededFolder } = require('./scale-seed');
const { measureWorkload } = require('./scale');
const { scaleWorkloads } = require('./scale-workloads');
const { findPostgres, startCluster } = require('./postgres-cluster');

const PEERS = ['postgraphile', 'workers'];
/** what is installed from npm for the PostGraphile peer: the newest 5.x and its filter plugin (both run on Node.js 20 with one shim) */
const POSTGRAPHILE_PACKAGES = { postgraphile: '5.1.5', 'postgraphile-plugin-connection-filter': '4.0.1' };
const WARM_UP_SECONDS = 2;
/** the list workload draws its page among the first LIST_PAGES pages of 10 */
const LIST_PAGES = 20;
const NAMES = { list: 'GraphQL list of 10 with category and tags', search: 'GraphQL title containsi + total' };
/** the issue's targets: Folio's throughput over PostGraphile's */
const POSTGRAPHILE_TARGETS = { [NAMES.list]: 1.5, [NAMES.search]: 2.5 };

const pick = (list) => list[Math.floor(Math.random() * list.length)];
const between = (low, high) => low + Math.floor(Math.random() * (high - low + 1));
const post = (query, variables) => ({ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });

const FOLIO_LIST = 'query($p: Int) { articles(pagination: { page: $p, pageSize: 10 }) { documentId title category { name } tags { name } } }';
const FOLIO_SEARCH = 'query($t: String) { articles_connection(filters: { title: { containsi: $t } }, pagination: { pageSize: 10 }) { nodes { documentId title } pageInfo { total } } }';

/** The two GraphQL workloads as Folio is asked them: a page among the first LIST_PAGES, a search term of the folder's. */
const folioWorkloads = ({ terms }) => [
  {
    name: NAMES.list,
    graphql: true,
    request: () => post(FOLIO_LIST, { p: between(1, LIST_PAGES) }),
    matches: (body) => body.data.articles.length === 10 && body.data.articles[0].category !== null && body.data.articles[0].tags.length > 0,
  },
  { name: NAMES.search, graphql: true, request: () => post(FOLIO_SEARCH, { t: pick(terms) }), matches: (body) => body.data.articles_connection.pageInfo.total > 0 },
];

const PEER_LIST = 'query($o: Int) { allArticles(first: 10, offset: $o) { nodes { rowId title categoryByCategoryId { name } articleTagsByArticleId { nodes { tagByTagId { name } } } } } }';
const PEER_SEARCH = 'query($t: String!) { allArticles(first: 10, filter: { title: { includesInsensitive: $t } }) { totalCount nodes { rowId title } } }';
const PEER_UPDATE = 'mutation($id: Int!, $title: String!, $views: Int!) { updateArticleByRowId(input: { rowId: $id, articlePatch: { title: $title, views: $views } }) { article { rowId } } }';

/** The same workloads as PostGraphile is asked them: the same data back (rows by primary key, as Folio's by id). */
const postgraphileWorkloads = ({ terms }) => [
  {
    name: NAMES.list,
    graphql: true,
    request: () => post(PEER_LIST, { o: (between(1, LIST_PAGES) - 1) * 10 }),
    matches: (body) => {
      const [first] = body.data.allArticles.nodes;
      return body.data.allArticles.nodes.length === 10 && first.categoryByCategoryId !== null && first.articleTagsByArticleId.nodes.length > 0;
    },
  },
  // includesInsensitive is ILIKE '%term%' (served by the pg_trgm GIN index), the page and totalCount two statements
  { name: NAMES.search, graphql: true, request: () => post(PEER_SEARCH, { t: pick(terms) }), matches: (body) => body.data.allArticles.totalCount > 0 },
];

/** The background writes' update of article `index` on PostGraphile: its row `index + 1`, through its GraphQL mutation. */
const postgraphileUpdate = async (url, manifest, index, { title, views }) => {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: PEER_UPDATE, variables: { id: index + 1, title, views } }) });
  const text = await response.text();
  if (!response.ok || text.includes('"errors":')) throw new Error(`updateArticleByRowId(${index + 1}) answered ${response.status}: ${text.slice(0, 300)}`);
};
const settlePostgraphile = (url) => fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' }).then((response) => response.arrayBuffer());

const SCHEMA = `
CREATE EXTENSION pg_trgm;
CREATE TABLE categories (id integer PRIMARY KEY, name text NOT NULL);
CREATE TABLE tags (id integer PRIMARY KEY, name text NOT NULL);
CREATE TABLE authors (id integer PRIMARY KEY, name text NOT NULL);
CREATE TABLE articles (
  id integer PRIMARY KEY,
  title text NOT NULL,
  views integer NOT NULL,
  category_id integer REFERENCES categories (id),
  author_id integer REFERENCES authors (id)
);
CREATE TABLE article_tags (
  article_id integer NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  tag_id integer NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  PRIMARY KEY (article_id, tag_id)
);`;
/** what a PostGraphile user adds: an index per foreign key (article_tags' primary key leads with article_id) and the title's trigrams */
const INDEXES = `
CREATE INDEX articles_category_id ON articles (category_id);
CREATE INDEX articles_author_id ON articles (author_id);
CREATE INDEX article_tags_tag_id ON article_tags (tag_id);
CREATE INDEX articles_title_trgm ON articles USING gin (title gin_trgm_ops);
ANALYZE;`;

/** a value in COPY's text format */
const copyValue = (value) => (value === null || value === undefined ? '\\N' : String(value).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r'));
const copyRows = (rows) => rows.map((row) => row.map(copyValue).join('\t')).join('\n') + '\n';

/**
 * Copies the folder's published documents into the cluster: related documents numbered in id order,
 * article `index` of the manifest as row `index + 1` (the background writes address them so).
 * Folio must not be running on `dataDir` (one process per data folder). Resolves with the rows' counts.
 */
const loadPostgres = async (cluster, dataDir, manifest) => {
  const { openStore } = require('../dist/src/storage/open-store');
  const store = await openStore({ client: 'embedded' }, dataDir);
  let documents;
  try {
    const published = (name) => store.collection(name).find({ _status: 'published' }, { sort: [['id', 1]] });
    documents = { categories: await published('categories'), tags: await published('tags'), authors: await published('authors'), articles: await published('articles') };
  } finally {
    await store.close();
  }
  const numbers = {};
  for (const name of ['categories', 'tags', 'authors']) numbers[name] = new Map(documents[name].map(({ documentId }, index) => [documentId, index + 1]));
  const articles = new Map(documents.articles.map((article) => [article.documentId, article]));
  const articleRows = [];
  const tagRows = [];
  for (const [index, documentId] of manifest.documentIds.entries()) {
    const article = articles.get(documentId);
    if (!article) throw new Error(`the seeded article ${documentId} has no published version in the folder`);
    articleRows.push([index + 1, article.title, article.views, numbers.categories.get(article.category) ?? null, numbers.authors.get(article.author) ?? null]);
    for (const tag of new Set(article.tags ?? [])) tagRows.push([index + 1, numbers.tags.get(tag)]);
  }
  cluster.psql(SCHEMA);
  for (const name of ['categories', 'tags', 'authors']) cluster.psql(`COPY ${name} (id, name) FROM STDIN`, copyRows(documents[name].map(({ name: value }, index) => [index + 1, value])));
  cluster.psql('COPY articles (id, title, views, category_id, author_id) FROM STDIN', copyRows(articleRows));
  cluster.psql('COPY article_tags (article_id, tag_id) FROM STDIN', copyRows(tagRows));
  cluster.psql(INDEXES);
  return { articles: articleRows.length, articleTags: tagRows.length };
};

/** npm installs PostGraphile into `dir` unless it is there already (BENCH_SCALE_CACHE keeps it between runs). */
const installPostgraphile = (dir) => {
  const wanted = Object.entries(POSTGRAPHILE_PACKAGES);
  const installed = () => wanted.every(([name, version]) => existsSync(join(dir, 'node_modules', name, 'package.json')) && JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version === version);
  if (installed()) return;
  mkdirSync(dir, { recursive: true });
  process.stderr.write(`installing ${wanted.map(([name, version]) => `${name}@${version}`).join(' ')} into ${dir}…\n`);
  try {
    execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', ...wanted.map(([name, version]) => `${name}@${version}`)], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  } catch (error) {
    throw new Error(`npm could not install PostGraphile: ${error.stderr ?? error.message}`);
  }
};

/** The PostGraphile side: a cluster loaded with the folder, PostGraphile started on it. */
const postgraphileSide = async ({ root, cache, dataDir, manifest }) => {
  const cluster = startCluster(findPostgres());
  try {
    process.stderr.write(`loading ${manifest.size} articles into PostgreSQL (${cluster.dir})…\n`);
    const counts = await loadPostgres(cluster, dataDir, manifest);
    const version = cluster.psql('SHOW server_version').trim();
    const packages = join(cache, `postgraphile-${POSTGRAPHILE_PACKAGES.postgraphile}`);
    installPostgraphile(packages);
    const server = await startProcess([join(__dirname, 'postgraphile-server.js')], { NODE_ENV: 'production', NODE_PATH: join(packages, 'node_modules'), DATABASE_URL: cluster.url });
    return {
      name: `PostGraphile ${POSTGRAPHILE_PACKAGES.postgraphile}`,
      ...server,
      workloads: postgraphileWorkloads(manifest),
      update: postgraphileUpdate,
      settle: settlePostgraphile,
      targets: POSTGRAPHILE_TARGETS,
      describe: `PostGraphile ${POSTGRAPHILE_PACKAGES.postgraphile} (Amber preset, postgraphile-plugin-connection-filter ${POSTGRAPHILE_PACKAGES['postgraphile-plugin-connection-filter']}, production: no GraphiQL, no watch) on PostgreSQL ${version.split(' ')[0]} (a temporary cluster, default settings, unix socket; ${counts.articles} articles, ${counts.articleTags} article_tags rows; B-tree indexes on the foreign keys, pg_trgm GIN on articles.title)`,
      async stop() {
        try {
          await stop(server);
        } finally {
          cluster.stop();
        }
      },
    };
  } catch (error) {
    cluster.stop();
    throw error;
  }
};

/** This build's default `server.workers` ("auto": a worker per core on the embedded store), undefined before the key existed. */
const defaultWorkers = () => require('../dist/src/config/defaults').defaultConfig('production').server.workers;

/** Why a peer cannot run here, before anything is seeded or started; undefined when it can. */
const unavailable = (peerName) => {
  if (peerName === 'postgraphile') {
    const { missing } = findPostgres();
    return missing && `PostGraphile skipped: ${missing}`;
  }
  if (process.env.FOLIO_WORKERS) return 'Folio `workers: 1` skipped: FOLIO_WORKERS is set, and it would set both sides alike (BENCH_WORKERS sets the default side alone)';
  if (defaultWorkers() === undefined) return 'Folio `workers: 1` skipped: this build has no `server.workers` configuration key yet (src/config/defaults.ts)';
  return undefined;
};

/**
 * `folio start`'s flags for the Folio side: `--workers` when BENCH_WORKERS sets them (the default's count on a
 * machine of other cores: two workers here, where `"auto"` is one process), none otherwise.
 */
const folioFlags = () => (process.env.BENCH_WORKERS ? ['--workers', process.env.BENCH_WORKERS] : []);

/** How the Folio side is configured: the default, unless FOLIO_WORKERS (which Folio reads) or BENCH_WORKERS sets its workers. */
const folioSettings = () => {
  if (process.env.FOLIO_WORKERS) return `default configuration but FOLIO_WORKERS=${process.env.FOLIO_WORKERS}`;
  if (process.env.BENCH_WORKERS) return `default configuration but \`--workers ${process.env.BENCH_WORKERS}\``;
  return `default configuration${defaultWorkers() === undefined ? '' : `, server.workers ${JSON.stringify(defaultWorkers())}`}`;
};

/** The `server: { workers: 1 }` side, on its own copy of the folder. */
const workersSide = async ({ root, dataDir, manifest }) => {
  const dir = join(root, 'workers-1');
  mkdirSync(dir);
  const configDir = writeConfig(dir, { server: { workers: 1 } });
  cpSync(dataDir, join(dir, 'data'), { recursive: true });
  const folio = await startFolioProcess('bin/folio.js', configDir, join(dir, 'data'));
  return {
    name: 'Folio workers: 1',
    ...folio,
    workloads: [...folioWorkloads(manifest), ...restWorkloads(manifest)],
    describe: 'Folio with `server: { workers: 1 }`, on a copy of the folder',
    memory: () => groupRssOf(folio.child.pid),
    stop: () => stop(folio),
  };
};

const restWorkloads = (manifest) => scaleWorkloads(manifest).filter(({ name }) => name === 'REST list' || name === 'REST get one by documentId');

const number = (value) => Math.round(value).toLocaleString('en-US');
const share = (rps, bare) => `${((rps / bare.rps) * 100).toFixed(1)}%`;

const report = ({ size, writes, duration, rounds, bare, folio, peer, rows }) => {
  const targets = peer.targets ?? {};
  const hasTargets = Object.keys(targets).length > 0;
  return [
    `### Folio beside ${peer.name}, ${number(size)} articles: autocannon -c 50 -d ${duration}${writes > 0 ? `, ${writes} writes/s to the server measured` : ''}, lower median of ${rounds} alternating rounds, ${new Date().toISOString()}`,
    '',
    `${folio.describe}; ${peer.describe}. bare node:http ${number(bare.rps)} req/s (median of ${bare.samples.map(number).join(', ')}).`,
    '',
    `| workload | ${folio.name} req/s | p50 ms | p99 ms | vs bare | ${peer.name} req/s | p50 ms | p99 ms | vs bare | ${folio.name} ÷ ${peer.name} |${hasTargets ? ' target | met |' : ''}`,
    `| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |${hasTargets ? ' ---: | :---: |' : ''}`,
    ...rows.map(({ name, ours, theirs }) => {
      const ratio = ours.rps / theirs.rps;
      const target = targets[name];
      const goal = hasTargets ? (target ? ` ≥ ${target}× | ${ratio >= target ? 'yes' : 'no'} |` : ' | |') : '';
      return `| ${name} | ${number(ours.rps)} | ${ours.p50} | ${ours.p99} | ${share(ours.rps, bare)} | ${number(theirs.rps)} | ${theirs.p50} | ${theirs.p99} | ${share(theirs.rps, bare)} | ${ratio.toFixed(2)}× |${goal}`;
    }),
    '',
    `${folio.name} ÷ ${peer.name} round by round: ${rows.map(({ name, byRound }) => `${name} ${byRound.map((ratio) => `${ratio.toFixed(2)}×`).join(', ')}`).join('; ')}`,
    `writes acknowledged: ${rows.map(({ name, ours, theirs }) => `${name} ${ours.written.succeeded}/${ours.written.sent} and ${theirs.written.succeeded}/${theirs.written.sent}`).join('; ')}`,
    ...[folio, peer]
      .filter((side) => side.rssAtEnd)
      .map(({ name, rssAtEnd: { bytes, processes } }) => `RSS of ${name} at the end of the rounds: ${number(bytes / 1024 / 1024)} MB in ${processes} process${processes === 1 ? '' : 'es'}`),
  ];
};

/** Each workload on both sides in alternating rounds, bare node:http before, halfway and after. */
const measureSides = async ({ folio, peer, manifest, bare, writes, duration, rounds }) => {
  await measure('bare node:http (warm-up)', { url: bare.url }, WARM_UP_SECONDS);
  const bareSamples = [await measure('bare node:http', { url: bare.url }, duration)];
  const rows = [];
  const pairs = peer.workloads.map((theirs) => ({ theirs, ours: folio.workloads.find(({ name }) => name === theirs.name) }));
  for (const [index, { ours, theirs }] of pairs.entries()) {
    if (index === Math.floor(pairs.length / 2) && index > 0) bareSamples.push(await measure('bare node:http', { url: bare.url }, duration));
    const results = { ours: [], theirs: [] };
    const runs = [
      () => measureWorkload(folio.url, ours, manifest, { writes, duration }).then((result) => results.ours.push(result)),
      () => measureWorkload(peer.url, theirs, manifest, { writes, duration, update: peer.update, settle: peer.settle }).then((result) => results.theirs.push(result)),
    ];
    for (let round = 0; round < rounds; round += 1) {
      process.stderr.write(`${theirs.name}, round ${round + 1}\n`);
      for (const run of round % 2 === 0 ? runs : [...runs].reverse()) await run();
    }
    rows.push({ name: theirs.name, ours: median(results.ours), theirs: median(results.theirs), byRound: results.ours.map((result, round) => result.rps / results.theirs[round].rps) });
  }
  bareSamples.push(await measure('bare node:http', { url: bare.url }, duration));
  return { rows, bare: { ...median(bareSamples), samples: bareSamples.map(({ rps }) => rps) } };
};

/** `npm run bench -- --peer <postgraphile|workers> [--size N] [--writes N]` */
const runPeer = async ({ peer: peerName, size, writes }) => {
  const skipped = unavailable(peerName);
  if (skipped) {
    console.log(skipped);
    return;
  }
  const root = mkdtempSync(join(tmpdir(), 'folio-peer-'));
  const cache = process.env.BENCH_SCALE_CACHE ?? root;
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  // two servers side by side on a shared machine differ by up to half from one round to the next: more rounds than the scale mode's 2
  const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
  let bare;
  let folio;
  let peer;
  try {
    const { configDir, dataDir, manifest } = await seededFolder(join(cache, String(size)), size);
    // the peer is prepared first: PostgreSQL is loaded from the folder while no Folio holds it
    peer = await (peerName === 'postgraphile' ? postgraphileSide : workersSide)({ root, cache, dataDir, manifest });
    const server = await startFolioProcess('bin/folio.js', configDir, dataDir, folioFlags());
    folio = {
      name: 'Folio',
      ...server,
      workloads: [...folioWorkloads(manifest), ...restWorkloads(manifest)],
      describe: `Folio (${folioSettings()}, production mode, embedded store)`,
      memory: () => groupRssOf(server.child.pid),
      stop: () => stop(server),
    };
    bare = await startProcess([join(__dirname, 'bare-server.js')]);
    const { rows, bare: bareResult } = await measureSides({ folio, peer, manifest, bare, writes, duration, rounds });
    for (const side of [folio, peer]) if (side.memory) side.rssAtEnd = side.memory();
    for (const line of ['', ...report({ size, writes, duration, rounds, bare: bareResult, folio, peer, rows })]) console.log(line);
  } finally {
    bare?.child.kill();
    await folio?.stop();
    await peer?.stop();
    rmSync(root, { recursive: true, force: true });
  }
};

module.exports = { PEERS, runPeer };
