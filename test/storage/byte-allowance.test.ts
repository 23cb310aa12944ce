import { AllowanceSpentError, approximateBytes, bytesSpent, createByteAllowance, spendBytes } from '../../src/storage/byte-allowance';

test('approximateBytes is about the JSON length', () => {
  const document = { title: 'x'.repeat(1000), views: 3, tags: [{ name: 'a' }], meta: null };
  const json = JSON.stringify(document).length;
  expect(approximateBytes(document)).toBeGreaterThanOrEqual(json);
  expect(approximateBytes(document)).toBeLessThan(json * 1.1);
});

test('an allowance is spent up to its max; the spending that passes it throws with the tally', () => {
  const allowance = createByteAllowance(100);
  spendBytes(allowance, 60);
  spendBytes(allowance, 40);
  expect(bytesSpent(allowance)).toBe(100);
  expect(() => spendBytes(allowance, 1)).toThrow(AllowanceSpentError);
  expect(bytesSpent(allowance)).toBe(101);
  let thrown: unknown;
  try {
    spendBytes(allowance, 5);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toMatchObject({ spent: 106, max: 100, code: AllowanceSpentError.code });
});

test('the tally is shared with the threads it is sent to', async () => {
  const { Worker } = await import('node:worker_threads');
  const allowance = createByteAllowance(1_000);
  const worker = new Worker("require('node:worker_threads').parentPort.once('message', ({ tally }) => { Atomics.add(tally, 0, 7n); require('node:worker_threads').parentPort.postMessage('done'); });", { eval: true });
  try {
    worker.postMessage(allowance);
    await new Promise((resolve) => worker.once('message', resolve));
    expect(bytesSpent(allowance)).toBe(7);
  } finally {
    await worker.terminate();
  }
});
