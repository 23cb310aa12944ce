import { createBackgroundTasks } from '../../src/common/background-tasks';

/** a task that runs until `finish` is called */
const held = (started: string[], name: string) => {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { task: () => (started.push(name), done), finish: () => finish() };
};
const turn = () => new Promise((resolve) => setImmediate(resolve));

test('runs nothing before the caller has answered, then in order, a few at once', async () => {
  const started: string[] = [];
  const tasks = createBackgroundTasks(() => undefined, { concurrency: 2, capacity: 10 });
  const [a, b, c] = ['a', 'b', 'c'].map((name) => held(started, name));
  tasks.run('a', a.task);
  tasks.run('b', b.task);
  tasks.run('c', c.task);
  expect(started).toEqual([]);
  await turn();
  expect(started).toEqual(['a', 'b']);
  a.finish();
  await turn();
  expect(started).toEqual(['a', 'b', 'c']);
  b.finish();
  c.finish();
  await tasks.stop(1000);
});

test('logs a failure by the task name, and keeps running the next', async () => {
  const logged: string[] = [];
  const tasks = createBackgroundTasks((line) => logged.push(line), { concurrency: 1, capacity: 10 });
  let ran = false;
  tasks.run('the reset mail of user 5', () => Promise.reject(new Error('ECONNECTION')));
  tasks.run('next', async () => void (ran = true));
  await turn();
  await tasks.stop(1000);
  expect(logged).toEqual(['the reset mail of user 5 failed: ECONNECTION']);
  expect(ran).toBe(true);
});

test('drops what a full line cannot take, and on stop what still waits, saying so; stop waits for what runs', async () => {
  const logged: string[] = [];
  const started: string[] = [];
  const tasks = createBackgroundTasks((line) => logged.push(line), { concurrency: 1, capacity: 2 });
  const running = held(started, 'running');
  tasks.run('running', running.task);
  await turn();
  tasks.run('waiting 1', async () => undefined);
  tasks.run('waiting 2', async () => undefined);
  tasks.run('one too many', async () => undefined);
  expect(logged).toEqual(['one too many dropped: 2 tasks are already waiting']);
  let stopped = false;
  const stopping = tasks.stop(1000).then(() => (stopped = true));
  await turn();
  expect(stopped).toBe(false);
  running.finish();
  await stopping;
  tasks.run('late', async () => undefined);
  expect(started).toEqual(['running']);
  expect(logged).toEqual([
    'one too many dropped: 2 tasks are already waiting',
    'waiting 1 dropped: the server is stopping',
    'waiting 2 dropped: the server is stopping',
    'late dropped: the server is stopping',
  ]);
});

test('stop waits for a task that never ends as long as it is told, and says so', async () => {
  const logged: string[] = [];
  const tasks = createBackgroundTasks((line) => logged.push(line), { concurrency: 1, capacity: 2 });
  tasks.run('hung mail', () => new Promise<void>(() => undefined));
  await turn();
  const started = Date.now();
  await tasks.stop(200);
  expect(Date.now() - started).toBeLessThan(1000);
  expect(logged).toEqual(['1 task(s) still running after 200 ms: the server stops without them']);
});
