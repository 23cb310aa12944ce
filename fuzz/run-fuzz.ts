import fc from 'fast-check';
import { anyRequest } from './arbitraries';
import { describeRequest, type FuzzRequest } from './fuzz-request';
import { answerProblem } from './oracles';
import { SERVER_ROOT, startFuzzServer } from './fuzz-server';

/**
 * `npm run fuzz`: seeded, grammar-based requests to a production-mode Folio with known content,
 * until FUZZ_SECONDS (60) have passed. Fails on a crash, a 5xx, an INTERNAL_SERVER_ERROR, an
 * answer over 5 s, a stack trace or path in a body, or stored content changed by a refused
 * request. FUZZ_SEED replays a run; the failing request is printed as a curl command.
 */

const seed = Number(process.env.FUZZ_SEED ?? 20261125);
const seconds = Number(process.env.FUZZ_SECONDS ?? 60);

/** A write with the admin token can change content; when it is refused, it must not have. */
const mayWrite = (request: FuzzRequest) => request.kind === 'http' && request.asAdmin && request.method !== 'GET';

const main = async () => {
  const started = Date.now();
  const server = await startFuzzServer();
  let sent = 0;
  const statuses = new Map<number, number>();
  try {
    process.stdout.write(`fuzz: seed ${seed}, ${seconds} s, server at ${server.process.url}\n`);
    const property = fc.asyncProperty(anyRequest({ documentIds: server.documentIds }), async (request) => {
      const before = mayWrite(request) ? await server.digest() : undefined;
      const answer = await server.send(request);
      sent += 1;
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const exited = server.process.exited();
      if (exited !== undefined) throw new Error(`the server process ended (${exited}):\n${server.process.stderr().slice(-3000)}`);
      const problem = answerProblem(answer, SERVER_ROOT);
      if (problem) throw new Error(`${problem}: HTTP ${answer.status}, ${answer.body.slice(0, 600)}`);
      if (before !== undefined && answer.status >= 400 && (await server.digest()) !== before) throw new Error(`refused with HTTP ${answer.status}, yet stored content changed`);
    });
    const remaining = Math.max(1000, seconds * 1000 - (Date.now() - started));
    const result = await fc.check(property, { seed, numRuns: Number.MAX_SAFE_INTEGER, interruptAfterTimeLimit: remaining, endOnFailure: true });
    const summary = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ');
    if (result.failed) {
      const [request] = result.counterexample ?? [];
      process.stderr.write(
        `\nfuzz: FAILED after ${sent} requests (seed ${seed}, path ${result.counterexamplePath}):\n  ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}\n` +
          `  request: ${request ? describeRequest(request) : '?'}\n  replay: FUZZ_SEED=${seed} npm run fuzz\n`,
      );
      process.exitCode = 1;
    } else {
      process.stdout.write(`fuzz: ${sent} requests in ${((Date.now() - started) / 1000).toFixed(0)} s, no failure (${summary})\n`);
    }
  } finally {
    await server.stop();
  }
};

main().catch((error: Error) => {
  process.stderr.write(`fuzz: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
