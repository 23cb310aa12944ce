import { startFuzzServer, type FuzzServer } from './fuzz-server';
import { MAX_RSS_BYTES } from './stall-watch';

/**
 * `npm run probe:memory`: the load that took a production server past 1 GB resident (issue 35 item 4), against
 * the fuzzer's server: PROBE_CLIENTS (4) anonymous clients, each sending, one after another for PROBE_SECONDS
 * (30), PROBE_ALIASES (4) aliased 100-article pages of titles of 100 KB. Prints the resident memory before, at
 * most (read every 200 ms) and after; fails past the fuzzer's bound (MAX_RSS_BYTES).
 */

const CLIENTS = Number(process.env.PROBE_CLIENTS ?? 4);
const ALIASES = Number(process.env.PROBE_ALIASES ?? 4);
const SECONDS = Number(process.env.PROBE_SECONDS ?? 30);
const ARTICLES = 100;
const TITLE_BYTES = 100 * 1024;

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

const seedLongTitles = async (server: FuzzServer) => {
  const unit = 'Probe title ';
  for (let index = 0; index < ARTICLES; index += 1) {
    const data = { title: `${unit.repeat(Math.ceil(TITLE_BYTES / unit.length))}${index}`, views: index };
    const answer = await server.send({ kind: 'http', method: 'POST', path: '/api/articles', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data }), asAdmin: true });
    if (answer.status !== 201) throw new Error(`seeding: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
  }
};

const main = async () => {
  const server = await startFuzzServer();
  try {
    await seedLongTitles(server);
    const query = `{ ${Array.from({ length: ALIASES }, (_, index) => `a${index}: articles(pagination: { limit: ${ARTICLES} }, sort: "views:desc") { title }`).join(' ')} }`;
    const statuses = new Map<number, number>();
    let peak = 0;
    let running = true;
    const sampler = (async () => {
      while (running) {
        peak = Math.max(peak, (await server.vitals()).rss);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const client = async (end: number) => {
      while (Date.now() < end) {
        const answer = await server.send({ kind: 'http', method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }), asAdmin: false });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
    };
    const before = (await server.vitals()).rss;
    const end = Date.now() + SECONDS * 1000;
    await Promise.all(Array.from({ length: CLIENTS }, () => client(end)));
    running = false;
    await sampler;
    const after = (await server.vitals()).rss;
    const answered = [...statuses].map(([status, times]) => `${status}×${times}`).join(' ');
    process.stdout.write(`memory probe: ${CLIENTS} clients × ${ALIASES} aliased pages of ${ARTICLES} titles of ${TITLE_BYTES / 1024} KB for ${SECONDS} s (${answered}): resident ${mb(before)} before, ${mb(peak)} at most, ${mb(after)} after\n`);
    if (peak > MAX_RSS_BYTES) {
      process.stderr.write(`memory probe: over ${mb(MAX_RSS_BYTES)}\n`);
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
  }
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
