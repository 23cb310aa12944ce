import { MAX_LAG_SECONDS, MAX_RSS_BYTES, startStallWatch } from '../../fuzz/stall-watch';

/** The fuzzer's watch fails a run on a stall or on memory past its bound, naming what was sent meanwhile. */
const watchOver = async (readings: Array<{ lag: number; rss: number }>) => {
  let next = 0;
  const { watch } = await startStallWatch(async () => readings[Math.min(next++, readings.length - 1)]);
  // unanswered while the watch runs: a suspect of every window
  watch.sending(() => 'POST /graphql the suspect');
  return watch.stop();
};

test('memory past MAX_RSS_BYTES fails the run, with the request sent in its window', async () => {
  const failure = await watchOver([
    { lag: 0, rss: 100 * 2 ** 20 },
    { lag: 0, rss: MAX_RSS_BYTES + 2 ** 20 },
  ]);
  expect(failure?.message).toMatch(/resident \(over 600 MB\).*the suspect/s);
});

test('a run within both bounds passes; a stall fails it', async () => {
  expect(await watchOver([{ lag: 0, rss: 100 * 2 ** 20 }, { lag: MAX_LAG_SECONDS / 2, rss: MAX_RSS_BYTES - 1 }])).toBeUndefined();
  expect((await watchOver([{ lag: 0, rss: 0 }, { lag: MAX_LAG_SECONDS * 2, rss: 0 }]))?.message).toMatch(/stalled 400 ms/);
});
