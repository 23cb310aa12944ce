import { spawn } from 'node:child_process';
import { once } from 'node:events';

const { cpuTimes, cpuPerAnswer } = require('../../bench/cpu-time') as {
  cpuTimes(pid: number): { group: number; main: number } | undefined;
  cpuPerAnswer(before: unknown, after: unknown, answered: number): { group: number; main: number } | undefined;
};

const spin = (ms: number): void => {
  for (const end = performance.now() + ms; performance.now() < end; );
};

test("a process's CPU time is read with its main thread's, and shared per answer", () => {
  const before = cpuTimes(process.pid)!;
  spin(300);
  const after = cpuTimes(process.pid)!;
  // ticks are 10 ms; the spin may be descheduled on a busy machine, but not for most of it
  expect(after.main - before.main).toBeGreaterThanOrEqual(100);
  // the group's and the main thread's ticks are read one after the other: either may have gained one more
  expect(after.group - before.group).toBeGreaterThanOrEqual(after.main - before.main - 10);
  const perAnswer = cpuPerAnswer(before, after, 10)!;
  expect(perAnswer.main).toBeCloseTo(((after.main - before.main) * 1000) / 10);
  expect(cpuPerAnswer(before, after, 0)).toBeUndefined();
});

test("a child process's CPU counts in its parent's group (a group of worker processes is counted whole)", async () => {
  const child = spawn(process.execPath, ['-e', 'for (const end = Date.now() + 400; Date.now() < end; ); setTimeout(() => {}, 5000)']);
  try {
    await new Promise((resolve) => setTimeout(resolve, 700));
    const own = cpuTimes(child.pid!)!;
    const group = cpuTimes(process.pid)!;
    expect(own.group).toBeGreaterThanOrEqual(200);
    const alone = cpuTimes(process.pid)!.main;
    expect(group.group).toBeGreaterThanOrEqual(alone + own.group - 50);
  } finally {
    child.kill();
    await once(child, 'exit');
  }
});
