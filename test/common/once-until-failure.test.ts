import { onceUntilFailure } from '../../src/common/once-until-failure';

test('runs once while it succeeds, and again after a failure', async () => {
  let calls = 0;
  let fail = true;
  const ready = onceUntilFailure(async () => {
    calls += 1;
    if (fail) throw new Error('down');
    return calls;
  });
  await expect(ready()).rejects.toThrow('down');
  fail = false;
  expect(await ready()).toBe(2);
  expect(await ready()).toBe(2);
  expect(calls).toBe(2);
});
