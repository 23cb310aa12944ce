import { execFileSync } from 'node:child_process';

/**
 * What `folio start` relies on to keep its reader threads' young generation small while the main thread's is 64 MB
 * (bin/folio.js's flag): a Worker's own limit does not override the flag, and setting the flag back before the
 * thread starts does. Each case runs in a process started with the flag, whose worker allocates 100 KB strings.
 */

const script = (mode: 'none' | 'limit' | 'reset') => `
require(${JSON.stringify(require.resolve('../support/register-ts.js'))});
const { Worker } = require('node:worker_threads');
if (${JSON.stringify(mode)} === 'reset') require(${JSON.stringify(require.resolve('../../src/app/thread-heaps.ts'))}).threadsTakeDefaultSemiSpaces();
const code = \`
const { getHeapSpaceStatistics } = require('node:v8');
const { randomBytes } = require('node:crypto');
let kept = [];
for (let i = 0; i < 3000; i++) { kept.push(randomBytes(50000).toString('hex')); if (kept.length > 300) kept = []; }
require('node:worker_threads').parentPort.postMessage(getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size);
\`;
const worker = new Worker(code, { eval: true, ...(${JSON.stringify(mode)} === 'limit' ? { resourceLimits: { maxYoungGenerationSizeMb: 16 } } : {}) });
worker.once('message', (bytes) => { process.stdout.write(String(Math.round(bytes / 2 ** 20))); void worker.terminate(); });
`;

const newSpaceMb = (mode: 'none' | 'limit' | 'reset'): number =>
  Number(execFileSync(process.execPath, ['--max-semi-space-size=64', '-e', script(mode)], { encoding: 'utf8' }));

test("a worker's young generation follows the process's flag, not its own limit, unless the flag is set back first", () => {
  expect(newSpaceMb('none')).toBeGreaterThan(64);
  expect(newSpaceMb('limit')).toBeGreaterThan(64);
  expect(newSpaceMb('reset')).toBeLessThanOrEqual(32);
});
