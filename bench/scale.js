'use strict';
/**
 * The scale benchmark (`npm run bench -- --size N`, see README "Benchmark at scale"): for each size,
 * a seeded data folder (bench/scale-seed.js), Folio started on it (start-up time, RSS), then every
 * read workload (bench/scale-workloads.js) with autocannon, its answers checked first to find
 * something, optionally with background writes (bench/scale-writes.js), against bare node:http
 * measured in the same run. Folders are seeded once per run, in BENCH_SCALE_CACHE when set (and
 * kept there for the next run), else in a temporary folder removed at the end.
 *
 * With BENCH_BASELINE=<git ref>, an earlier build serves a copy of each seeded folder beside the current
 * build's copy, and every workload is measured on both in alternating rounds (BENCH_ROUNDS, 2), each round
 * on freshly started servers with its own background writes: the tables show the median round of each build,
 * the change and every round's figures ("RSS at the end" is then the last round's current server's).
 */
const { execFileSync } = require('node:child_process');
const { get } = require('node:http');
const { cpSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { TOKEN, groupRssOf, measure, median, startFolioProcess, startProcess, stop } = require('./folio-process');
const { seededFolder } = require('./scale-seed');
const { createWorkload, scaleWorkloads } = require('./scale-workloads');
const { startWrites } = require('./scale-writes');
const { sizeTable, summaryTable } = require('./scale-report');
const { buildBaseline } = require('./baseline');
const { cpuPerAnswer, cpuTimes } = require('./cpu-time');

const WARM_UP_SECONDS = 2;
/** requests of each workload whose answers are checked before it is measured */
const CHECKED_ANSWERS = 5;

/** one GET through node:http, which this process has loaded already (its first fetch would load undici): resolves with the status */
const firstAnswer = (url) =>
  new Promise((resolve, reject) => {
    get(`${url}/api/articles?pagination[pageSize]=1`, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode));
    }).once('error', reject);
  });

const folderBytes = (dir) => Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);

/** A few of the workload's requests, sent one by one: each must be 2xx, error-free and find something. */
const checkAnswers = async (url, workload) => {
  for (let count = 0; count < CHECKED_ANSWERS; count += 1) {
    const { method, path, headers, body } = workload.request();
    const response = await fetch(`${url}${path}`, { method, headers, body });
    const text = await response.text();
    workload.onAnswer?.(response.status, text);
    const parsed = response.ok ? JSON.parse(text) : undefined;
    if (!parsed || parsed.errors || !workload.matches(parsed)) {
      throw new Error(`${workload.name}: ${method} ${path} ${body ?? ''} answered ${response.status} without a match: ${text.slice(0, 300)}`);
    }
  }
};

/**
 * autocannon options for `workload`: a fresh query per request; GraphQL answers carrying errors are counted in `failed`.
 * A request unanswered after autocannon's 10 s fails the run, unless the workload gives its own `timeout` (seconds).
 */
const cannonOptions = (url, workload, failed) => {
  const request = { setupRequest: (defaults) => ({ ...defaults, ...workload.request() }) };
  if (workload.graphql) request.onResponse = (status, body) => body.includes('"errors":') && (failed.count += 1);
  if (workload.onAnswer) request.onResponse = (status, body) => workload.onAnswer(status, body);
  return { url, requests: [request], ...(workload.timeout && { timeout: workload.timeout }) };
};

/** The documentIds of the seeded categories, tags and authors: what created articles relate to. */
const relatedIds = async (url) => {
  const ids = async (plural) => {
    const response = await fetch(`${url}/api/${plural}?fields[0]=documentId&pagination[pageSize]=100`, { headers: { authorization: `Bearer ${TOKEN}` } });
    if (!response.ok) throw new Error(`GET /api/${plural} answered ${response.status}`);
    return (await response.json()).data.map(({ documentId }) => documentId);
  };
  return { categories: await ids('categories'), tags: await ids('tags'), authors: await ids('authors') };
};

/** Deletes the articles the create workload made (its answers were checked too), 8 at a time: the folder keeps its size. */
const removeCreated = async (url, created) => {
  const remove = async () => {
    for (let documentId = created.pop(); documentId !== undefined; documentId = created.pop()) {
      const response = await fetch(`${url}/api/articles/${documentId}`, { method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}` } });
      await response.arrayBuffer();
      if (!response.ok && response.status !== 404) throw new Error(`DELETE /api/articles/${documentId} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, remove));
};

/** the cheap request the measured run waits for after the warm-up: Folio's get-one, unless `settings.settle` says */
const settleFolio = (url, manifest) => fetch(`${url}/api/articles/${manifest.documentIds[0]}`).then((response) => response.arrayBuffer());

/**
 * `settings`: `{ writes, duration }`, for another server than Folio its `update` (see scale-writes) and `settle`,
 * and the server's `pid` to add the CPU it used per answer (`cpu`, cpu-time; the background writes' included)
 */
const measureWorkload = async (url, workload, manifest, { writes, duration, update, settle = settleFolio, pid }) => {
  await checkAnswers(url, workload);
  const failed = { count: 0 };
  const writer = startWrites(url, manifest, writes, update);
  let measured;
  let written;
  try {
    await measure(`${workload.name} (warm-up)`, cannonOptions(url, workload, failed), WARM_UP_SECONDS);
    // the server is still working on the warm-up's last requests (closing a connection does not stop them):
    // a cheap request answers once they are done, so the measured run does not pay for them
    await settle(url, manifest);
    const cpuBefore = pid && cpuTimes(pid);
    measured = await measure(workload.name, cannonOptions(url, workload, failed), duration);
    measured.cpu = pid && cpuPerAnswer(cpuBefore, cpuTimes(pid), measured.answered);
  } finally {
    written = await writer.stop();
  }
  if (written.failures.length > 0) throw new Error(`${workload.name}: ${written.failures.length} of ${written.sent} writes failed, the first: ${written.failures[0]}`);
  if (failed.count > 0) throw new Error(`${workload.name}: ${failed.count} GraphQL answers carried errors`);
  return { ...measured, written };
};

/** the median over rounds of the CPU per answer (of the whole group), with the main thread's of that round */
const medianCpu = (results) => {
  const measured = results.map(({ cpu }) => cpu).filter(Boolean).sort((a, b) => a.group - b.group);
  return measured.length > 0 ? measured[Math.floor((measured.length - 1) / 2)] : undefined;
};

/**
 * The workload on the current build, or on both in alternating rounds (A B, B A, …) when a baseline runs.
 * Each round starts both servers afresh (`servers.restart`): two processes of one build, kept for every round
 * of a workload, read 9-16 % apart in every round (one way on one workload, the other way on the next), so a
 * process's own state (its heap, compiled code, page cache) weighed as much as most changes measured.
 */
const measureBoth = async (servers, workload, manifest, settings) => {
  if (!servers.baseline) return measureWorkload(servers.current.url, workload, manifest, { ...settings, pid: servers.current.child.pid });
  const current = [];
  const earlier = [];
  for (let round = 0; round < settings.rounds; round += 1) {
    await servers.restart();
    const pair = [
      async () => current.push(await measureWorkload(servers.current.url, workload, manifest, { ...settings, pid: servers.current.child.pid })),
      async () => earlier.push(await measureWorkload(servers.baseline.url, workload, manifest, { ...settings, pid: servers.baseline.child.pid })),
    ];
    for (const run of round % 2 === 0 ? pair : [...pair].reverse()) await run();
  }
  const rounds = current.map((result, round) => ({ current: result.rps, baseline: earlier[round].rps }));
  return { ...median(current), cpu: medianCpu(current), baseline: { ...median(earlier), cpu: medianCpu(earlier) }, rounds };
};

const measureSize = async (size, { cache, root, bare, writes, duration, only, baselineBuild, rounds }) => {
  const { configDir, dataDir: seededData, manifest } = await seededFolder(join(cache, String(size)), size);
  // with a baseline, each build writes to its own copy, made the same way: both start from the same data
  const copyOf = (name) => {
    const copy = join(root, `${name}-${size}`);
    cpSync(seededData, copy, { recursive: true });
    return copy;
  };
  const dataDir = baselineBuild ? copyOf('current') : seededData;
  const baselineData = baselineBuild && copyOf('baseline');
  const started = performance.now();
  const servers = { current: await startFolioProcess('bin/folio.js', configDir, dataDir) };
  servers.restart = async () => {
    await Promise.all([stop(servers.current), stop(servers.baseline)]);
    servers.current = await startFolioProcess('bin/folio.js', configDir, dataDir);
    servers.baseline = await startFolioProcess(baselineBuild.bin, configDir, baselineData);
  };
  try {
    const folio = servers.current;
    // start-up is to the first answer (issue 33's measure): listening is not yet answering
    const status = await firstAnswer(folio.url);
    if (status !== 200) throw new Error(`the first GET /api/articles answered ${status}`);
    const startupMs = performance.now() - started;
    const rssAfterStart = groupRssOf(folio.child.pid).bytes;
    const bytes = folderBytes(dataDir);
    if (baselineBuild) servers.baseline = await startFolioProcess(baselineBuild.bin, configDir, baselineData);
    await measure('bare node:http (warm-up)', { url: bare.url }, WARM_UP_SECONDS);
    // bare node:http before, halfway through and after the workloads: its throughput on this machine moved
    // between 46,000 and 99,000 req/s from one run to the next, so one sample made every share a lottery
    const bareSamples = [await measure('bare node:http', { url: bare.url }, duration)];
    const created = [];
    const workloads = [...scaleWorkloads(manifest), createWorkload(manifest, await relatedIds(folio.url), TOKEN, created)].filter(({ name }) => only.test(name));
    const rows = [];
    for (const [index, workload] of workloads.entries()) {
      if (index === Math.floor(workloads.length / 2) && index > 0) bareSamples.push(await measure('bare node:http', { url: bare.url }, duration));
      process.stderr.write(`${size} articles: ${workload.name}\n`);
      rows.push(await measureBoth(servers, workload, manifest, { writes, duration, rounds }));
    }
    bareSamples.push(await measure('bare node:http', { url: bare.url }, duration));
    await removeCreated(servers.current.url, created);
    const bareResult = { ...median(bareSamples), samples: bareSamples.map(({ rps }) => rps) };
    return { size, writes, duration, bare: bareResult, rows, startupMs, rssAfterStart, rssAtEnd: groupRssOf(servers.current.child.pid).bytes, folderBytes: bytes, baselineRef: baselineBuild && process.env.BENCH_BASELINE, rounds };
  } finally {
    await Promise.all([stop(servers.current), stop(servers.baseline)]);
    if (baselineBuild) for (const copy of [dataDir, baselineData]) rmSync(copy, { recursive: true, force: true });
  }
};

/** Runs the sizes in increasing order and prints a table per size, then the summary. */
const runScale = async ({ sizes, writes }) => {
  const root = mkdtempSync(join(tmpdir(), 'folio-scale-'));
  const cache = process.env.BENCH_SCALE_CACHE ?? root;
  const settings = { cache, root, writes, duration: Number(process.env.BENCH_DURATION ?? 10), only: new RegExp(process.env.BENCH_FILTER ?? '', 'i'), rounds: Number(process.env.BENCH_ROUNDS ?? 2) };
  let bare;
  let baselineBuild;
  try {
    if (process.env.BENCH_BASELINE) baselineBuild = settings.baselineBuild = buildBaseline(process.env.BENCH_BASELINE);
    bare = await startProcess([join(__dirname, 'bare-server.js')]);
    const results = [];
    for (const size of [...sizes].sort((a, b) => a - b)) {
      const result = await measureSize(size, { ...settings, bare });
      results.push(result);
      console.log(['', ...sizeTable(result)].join('\n'));
    }
    console.log(['', ...summaryTable(results)].join('\n'));
  } finally {
    bare?.child.kill();
    baselineBuild?.remove();
    rmSync(root, { recursive: true, force: true });
  }
};

module.exports = { runScale, checkAnswers, measureWorkload };
