import fc from 'fast-check';
import { anyRequest } from './arbitraries';
import { describeRequest, type FuzzAnswer, type FuzzRequest } from './fuzz-request';
import { answerProblem } from './oracles';
import { SERVER_ROOT, startFuzzServer, type FuzzServer } from './fuzz-server';
import { startStallWatch, StallError, type StallWatch } from './stall-watch';

/**
 * `npm run fuzz`: seeded, grammar-based requests to a production-mode Folio with known content,
 * until FUZZ_SECONDS (60) have passed. Fails on a crash, a 5xx, an INTERNAL_SERVER_ERROR, an
 * answer over 1 s, a stack trace or path in a body, stored content changed by a refused request,
 * or, while the run goes, an event-loop stall over 200 ms or more than 600 MB resident in the server (stall-watch.ts). FUZZ_SEED
 * replays a run; the failing request is printed as a curl command.
 */

const seed = Number(process.env.FUZZ_SEED ?? 20261125);
const seconds = Number(process.env.FUZZ_SECONDS ?? 60);

/**
 * A write with the admin token can change content; when it is refused, it must not have. A GraphQL
 * document that says no `mutation` cannot write (its body is JSON.stringify's, which escapes no letter;
 * a `\u` escape is taken as a possible write), and it skips the digest, which reads every long title twice.
 */
const mayWrite = (request: FuzzRequest) => {
  if (request.kind !== 'http' || !request.asAdmin || request.method === 'GET') return false;
  const body = request.body ?? '';
  return !(request.path.startsWith('/graphql') && !/mutation|\\u/i.test(body));
};

/** What a run saw, for its last line. */
interface Tally {
  sent: number;
  statuses: Map<number, number>;
  shapes: Map<string, number>;
  slowest?: { ms: number; request: FuzzRequest };
}

const count = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

const record = (tally: Tally, request: FuzzRequest, answer: FuzzAnswer) => {
  tally.sent += 1;
  count(tally.statuses, answer.status);
  if (request.kind === 'http' && request.shape) count(tally.shapes, request.shape);
  if (!tally.slowest || answer.ms > tally.slowest.ms) tally.slowest = { ms: answer.ms, request };
};

const counts = <K>(map: Map<K, number>) => [...map].map(([key, times]) => `${key}×${times}`).join(' ');

/** One request, judged: the server alive, the answer sound, the content as it was if refused, the event loop never held. */
const check = async (server: FuzzServer, watch: StallWatch, tally: Tally, request: FuzzRequest) => {
  const stalled = watch.failure();
  if (stalled) throw stalled;
  const digest = async () => {
    const done = watch.sending(() => 'the digest: every content document, read in pages of 50');
    try {
      return await server.digest();
    } finally {
      done();
    }
  };
  const before = mayWrite(request) ? await digest() : undefined;
  const done = watch.sending(() => describeRequest(request));
  const answer = await server.send(request);
  done();
  record(tally, request, answer);
  const exited = server.process.exited();
  if (exited !== undefined) throw new Error(`the server process ended (${exited}):\n${server.process.stderr().slice(-3000)}`);
  const problem = answerProblem(answer, SERVER_ROOT);
  if (problem) throw new Error(`${problem}: HTTP ${answer.status}, ${answer.body.slice(0, 600)}`);
  if (before !== undefined && answer.status >= 400 && (await digest()) !== before) throw new Error(`refused with HTTP ${answer.status}, yet stored content changed`);
};

const reportFailure = (tally: Tally, error: unknown, request: FuzzRequest | undefined, path: string | null | undefined) => {
  const message = error instanceof Error ? error.message : String(error);
  // a stall names its own suspects: the request fast-check holds is only the next one, not sent
  const at = error instanceof StallError ? '' : `  request: ${request ? describeRequest(request) : '?'}\n`;
  process.stderr.write(`\nfuzz: FAILED after ${tally.sent} requests (seed ${seed}, path ${path}):\n  ${message}\n${at}  replay: FUZZ_SEED=${seed} npm run fuzz\n`);
  process.exitCode = 1;
};

const main = async () => {
  const started = Date.now();
  const server = await startFuzzServer();
  const tally: Tally = { sent: 0, statuses: new Map(), shapes: new Map() };
  try {
    // only once the server is ready and seeded: start-up's window is not judged
    const { watch, startupLag } = await startStallWatch(server.vitals);
    process.stdout.write(`fuzz: seed ${seed}, ${seconds} s, server at ${server.process.url} (start-up and seeding: event loop late by ${(startupLag * 1000).toFixed(0)} ms at most, not judged)\n`);
    const property = fc.asyncProperty(anyRequest({ documentIds: server.documentIds }), (request) => check(server, watch, tally, request));
    const remaining = Math.max(1000, seconds * 1000 - (Date.now() - started));
    const result = await fc.check(property, { seed, numRuns: Number.MAX_SAFE_INTEGER, interruptAfterTimeLimit: remaining, endOnFailure: true });
    const stall = await watch.stop();
    if (result.failed) reportFailure(tally, result.errorInstance, result.counterexample?.[0], result.counterexamplePath);
    else if (stall) reportFailure(tally, stall, undefined, 'after the last request');
    else {
      const slowest = tally.slowest ? `slowest ${tally.slowest.ms} ms: ${describeRequest(tally.slowest.request).slice(0, 160)}` : 'none sent';
      process.stdout.write(
        `fuzz: ${tally.sent} requests in ${((Date.now() - started) / 1000).toFixed(0)} s, no failure (${counts(new Map([...tally.statuses].sort(([a], [b]) => a - b)))})\n` +
          `  costly shapes: ${counts(tally.shapes)}\n  event loop late by ${(watch.maxLag() * 1000).toFixed(0)} ms at most, ${(watch.maxRss() / 2 ** 20).toFixed(0)} MB resident at most; ${slowest}\n`,
      );
    }
  } finally {
    await server.stop();
  }
};

main().catch((error: Error) => {
  process.stderr.write(`fuzz: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
