/**
 * Work done after the answer, so that how long it takes does not show in the answer (a password reset mail:
 * only an account gets one, and an SMTP round trip is easy to time). Tasks run in the order given, a few at
 * once; a task that fails is logged with its name. The waiting line is bounded, so a flood of requests cannot
 * grow memory: past it a task is dropped, and that is logged too.
 */

export interface BackgroundTasks {
  /** queues `task`; `name` says in the log what failed or was dropped */
  run(name: string, task: () => Promise<void>): void;
  /**
   * takes no more tasks, drops (and logs) those still waiting and waits for those running, `waitMs` at most:
   * a mail server that never answers would hold a stop for nodemailer's timeouts (minutes), past any
   * orchestrator's patience
   */
  stop(waitMs: number): Promise<void>;
}

export interface BackgroundTaskLimits {
  /** tasks running at once */
  concurrency: number;
  /** tasks waiting for a turn */
  capacity: number;
}

export const createBackgroundTasks = (log: (line: string) => void, { concurrency, capacity }: BackgroundTaskLimits): BackgroundTasks => {
  const waiting: Array<{ name: string; task: () => Promise<void> }> = [];
  const running = new Set<Promise<void>>();
  let stopped = false;

  const next = (): void => {
    while (running.size < concurrency && waiting.length > 0) {
      const { name, task } = waiting.shift()!;
      const done: Promise<void> = Promise.resolve()
        .then(task)
        .catch((error: unknown) => log(`${name} failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          running.delete(done);
          next();
        });
      running.add(done);
    }
  };

  return {
    run(name, task) {
      if (stopped || waiting.length >= capacity) {
        log(`${name} dropped: ${stopped ? 'the server is stopping' : `${capacity} tasks are already waiting`}`);
        return;
      }
      waiting.push({ name, task });
      // on a later turn of the event loop: the answer being made now is written first, even when the task
      // begins with synchronous work (a write to the embedded store)
      setImmediate(next);
    },
    async stop(waitMs) {
      stopped = true;
      for (const { name } of waiting.splice(0)) log(`${name} dropped: the server is stopping`);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), waitMs)));
      const unfinished = await Promise.race([Promise.all(running).then(() => false), late]);
      clearTimeout(timer);
      if (unfinished) log(`${running.size} task(s) still running after ${waitMs} ms: the server stops without them`);
    },
  };
};
