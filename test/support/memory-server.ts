import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import type { MemoryReport } from '../upload/upload-server-process';

/**
 * A Folio in a process of its own (test/upload/upload-server-process.ts), so a test can measure
 * the server's memory alone: `ask('baseline')` collects garbage and starts watching the peak
 * again, `ask('report')` gives the figures so far.
 */

export interface MemoryServer {
  url: string;
  dataDir: string;
  ask(message: 'baseline' | 'report'): Promise<MemoryReport>;
  stop(): Promise<void>;
}

export const startMemoryServer = async (): Promise<MemoryServer> => {
  const child: ChildProcess = fork(resolve(__dirname, '../upload/upload-server-process.ts'), [], {
    execArgv: ['--expose-gc', '-r', resolve(__dirname, 'register-ts.js')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const nextMessage = <T>(): Promise<T> =>
    new Promise((done, fail) => {
      child.once('message', (message) => done(message as T));
      child.once('exit', (code) => fail(new Error(`server process exited (${code})`)));
    });
  const { url, dataDir } = await nextMessage<{ url: string; dataDir: string }>();
  return {
    url,
    dataDir,
    ask(message) {
      const answer = nextMessage<MemoryReport>();
      child.send(message);
      return answer;
    },
    async stop() {
      const exited = new Promise((done) => child.once('exit', done));
      child.send('stop');
      await exited;
    },
  };
};
