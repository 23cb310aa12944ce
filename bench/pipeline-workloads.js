'use strict';
/**
 * Figures of the one envelop pipeline (docs/speed.md), printed by bench/run.js, each on the 1,000-article
 * seed of one data folder, served in turn by three configurations of the same build:
 *   plain    no user plugins, trusted documents readable (full documents still allowed), no response cache
 *   plugins  the same with three no-op envelop plugins (every hook present, doing nothing): target ≤ 5 % off REST list throughput
 *   cached   graphql.config.responseCache on: a cache hit against plain's uncached figure, target ≥ 3×
 * and, on plain, an operation sent as a persisted documentId against the same full document.
 * The seeded data folder is copied for each (the embedded store is one process's), the three run side by
 * side, warm, and are measured in rounds of alternating order; the figures are each workload's mean over
 * the rounds (PIPELINE_ROUNDS, 3).
 */
const { createHash } = require('node:crypto');
const { cpSync, mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROUNDS = Number(process.env.PIPELINE_ROUNDS ?? 3);
const CONFIGURATIONS = ['plain', 'plugins', 'cached'];
const REST_LIST = '/api/articles?pagination[pageSize]=10&populate=category';
const LIST_QUERY = '{ articles(pagination: {pageSize: 10}) { documentId title category { name } tags { name } } }';
const LIST_HASH = createHash('sha256').update(LIST_QUERY).digest('hex');
const PUBLIC_READS = ['article', 'category', 'tag', 'author'].flatMap((name) => [`api::${name}.${name}.find`, `api::${name}.${name}.findOne`]);

const NOOP_PLUGINS = `const noop = () => ({ onParse() {}, onValidate() {}, onContextBuilding() {}, onExecute() {} });
module.exports = {
  graphql: { config: { persistedOperations: { store: 'persisted.json' }, yoga: { plugins: [noop(), noop(), noop()] } } },
  'users-permissions': { config: { roles: { public: { permissions: ${JSON.stringify(PUBLIC_READS)} } } } },
};
`;

const pluginsJson = (graphqlConfig) => JSON.stringify({ graphql: { config: graphqlConfig }, 'users-permissions': { config: { roles: { public: { permissions: PUBLIC_READS } } } } });

/** The three config folders, under `root`. */
const writeConfigs = (root, token) => {
  const folders = {};
  for (const name of CONFIGURATIONS) {
    const dir = join(root, `pipeline-${name}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'admin.json'), JSON.stringify({ apiTokens: [{ name: 'bench', type: 'full-access', accessKey: token }] }));
    writeFileSync(join(dir, 'persisted.json'), JSON.stringify({ [LIST_HASH]: LIST_QUERY }));
    if (name === 'plugins') writeFileSync(join(dir, 'plugins.js'), NOOP_PLUGINS);
    else writeFileSync(join(dir, 'plugins.json'), pluginsJson({ persistedOperations: { store: 'persisted.json' }, ...(name === 'cached' ? { responseCache: true } : {}) }));
    folders[name] = dir;
  }
  return folders;
};

const post = (url, body) => ({ url: `${url}/graphql`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** What each configuration is measured on. */
const WORKLOADS = {
  plain: (url) => [
    ['REST list (populate category), no user plugins', { url: `${url}${REST_LIST}` }],
    ['GraphQL list, full document', post(url, { query: LIST_QUERY })],
    ['GraphQL list, persisted documentId', post(url, { documentId: LIST_HASH })],
  ],
  plugins: (url) => [['REST list (populate category), 3 no-op plugins', { url: `${url}${REST_LIST}` }]],
  cached: (url) => [
    ['REST list (populate category), cache hit', { url: `${url}${REST_LIST}` }],
    ['GraphQL list, full document, cache hit', post(url, { query: LIST_QUERY })],
  ],
};

const pipelineFigures = async ({ root, startFolioProcess, seed, stop, measure, token }) => {
  const folders = writeConfigs(root, token);
  const dataDir = (name) => join(root, `pipeline-data-${name}`);
  const start = (name) => startFolioProcess('bin/folio.js', folders[name], dataDir(name));
  const seeding = await start('plain');
  try {
    process.stderr.write('seeding 1,000 articles (pipeline)…\n');
    await seed(seeding.url);
  } finally {
    await stop(seeding);
  }
  for (const name of CONFIGURATIONS.slice(1)) cpSync(dataDir('plain'), dataDir(name), { recursive: true });
  const servers = {};
  try {
    for (const name of CONFIGURATIONS) servers[name] = await start(name);
    for (const name of CONFIGURATIONS) for (const [workload, options] of WORKLOADS[name](servers[name].url)) await measure(`${workload} (warm-up)`, { ...options, duration: 2 });
    const sums = new Map();
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const name of round % 2 === 0 ? CONFIGURATIONS : [...CONFIGURATIONS].reverse()) {
        for (const [workload, options] of WORKLOADS[name](servers[name].url)) {
          const { rps, p99 } = await measure(workload, options);
          const sum = sums.get(workload) ?? { rps: 0, p99: 0 };
          sums.set(workload, { rps: sum.rps + rps / ROUNDS, p99: sum.p99 + p99 / ROUNDS });
        }
      }
    }
    return report(sums);
  } finally {
    for (const server of Object.values(servers)) await stop(server);
  }
};

const report = (sums) => {
  const rps = (workload) => sums.get(workload).rps;
  const ratio = (a, b) => `${((rps(a) / rps(b)) * 100).toFixed(1)}%`;
  const lines = [`The pipeline (mean of ${ROUNDS} rounds):`, '| workload | req/s | p99 ms |', '| --- | ---: | ---: |'];
  for (const [workload, { rps: mean, p99 }] of sums) lines.push(`| ${workload} | ${Math.round(mean)} | ${Math.round(p99)} |`);
  lines.push(
    '',
    `- 3 no-op plugins: REST list at ${ratio('REST list (populate category), 3 no-op plugins', 'REST list (populate category), no user plugins')} of the plugin-free figure (target ≥ 95 %)`,
    `- response cache hit: REST list ${(rps('REST list (populate category), cache hit') / rps('REST list (populate category), no user plugins')).toFixed(2)}×, GraphQL list ${(rps('GraphQL list, full document, cache hit') / rps('GraphQL list, full document')).toFixed(2)}× the uncached figure (target ≥ 3×)`,
    `- persisted documentId: ${ratio('GraphQL list, persisted documentId', 'GraphQL list, full document')} of the full document's figure`,
  );
  return lines;
};

module.exports = { pipelineFigures };
