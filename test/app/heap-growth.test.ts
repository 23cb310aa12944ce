import { execFileSync } from 'node:child_process';
import { MIN_PERCENT, heapGrowthAt } from '../../src/app/heap-growth';

const MB = 2 ** 20;

test("the growth leaves the process under the soft limit, MIN_PERCENT past it, and is V8's own (or heapGrowingPercent) with room for it", () => {
  // 300 MB of room over a heap of 100 MB: V8's policy grows it 4× at most, which stays under
  expect(heapGrowthAt(212 * MB, 100 * MB, 512 * MB, 0)).toBe(0);
  expect(heapGrowthAt(212 * MB, 100 * MB, 512 * MB, 40)).toBe(40);
  expect(heapGrowthAt(412 * MB, 100 * MB, 512 * MB, 0)).toBe(100);
  expect(heapGrowthAt(412 * MB, 100 * MB, 512 * MB, 40)).toBe(40);
  expect(heapGrowthAt(502 * MB, 100 * MB, 512 * MB, 0)).toBe(MIN_PERCENT);
  expect(heapGrowthAt(900 * MB, 100 * MB, 512 * MB, 0)).toBe(MIN_PERCENT);
  expect(heapGrowthAt(900 * MB, 100 * MB, 512 * MB, 5)).toBe(5);
  expect(heapGrowthAt(4096 * MB, 100 * MB, false, 0)).toBe(0);
});

/**
 * What the policy is for, in a process started with bin/folio.js's young generation: garbage promoted as under
 * large answers (100 KB strings that outlive a few scavenges, a window of 40 MB of them live), the heap's largest
 * size. `off`: no limit; `past`: always past it; `crossed`: under it at the start and past it from the first
 * collection on, which only the collections' observer can see.
 */
const script = (mode: 'off' | 'past' | 'crossed') => `
require(${JSON.stringify(require.resolve('../support/register-ts.js'))});
const { steerHeapGrowth } = require(${JSON.stringify(require.resolve('../../src/app/heap-growth.ts'))});
const { getHeapStatistics } = require('node:v8');
const { randomBytes } = require('node:crypto');
const mode = ${JSON.stringify(mode)};
let calls = 0;
const growth = steerHeapGrowth(mode === 'off' ? false : 1024 * 1024 * 1024, 0, () => (mode === 'past' || calls++ > 0 ? Infinity : 0));
(async () => {
  let peak = 0;
  const window = [];
  for (let i = 0; i < 6000; i++) {
    window.push(randomBytes(50000).toString('hex'));
    if (window.length > 400) window.shift();
    if (i % 50 === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      peak = Math.max(peak, getHeapStatistics().total_heap_size);
    }
  }
  growth.stop();
  process.stdout.write(String(Math.round(peak / 2 ** 20)));
})();
`;

const peakHeapMb = (mode: 'off' | 'past' | 'crossed'): number =>
  Number(execFileSync(process.execPath, ['--max-semi-space-size=64', '-e', script(mode)], { encoding: 'utf8' }));

test('past the soft limit the heap stays far smaller under promoted garbage, and crossing it is seen after a collection', () => {
  const off = peakHeapMb('off');
  expect(peakHeapMb('past')).toBeLessThan(off * 0.75);
  expect(peakHeapMb('crossed')).toBeLessThan(off * 0.75);
});
