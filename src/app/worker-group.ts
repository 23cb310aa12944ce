import cluster, { type Worker } from 'node:cluster';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { FolioConfig } from '../config/types';
import { acquireDataDirLock, type DataDirLock } from '../storage/embedded/data-dir-lock';
import { removeControlSockets } from '../common/control-socket';
import type { GroupWorker } from './start-folio';

/**
 * `folio start` with several workers (`server.workers`): Node's cluster, the primary holding the port and
 * handing connections to the workers, which all serve from the one data folder (SQLite in WAL mode: many
 * readers, one writer at a time; each worker reads what the others commit, see other-writers). The primary
 * serves nothing and opens no store: it holds the data folder's lock, forks, replaces and stops.
 *
 * The first worker starts alone: the start-up work (migrations, index builds, secrets, roles, example
 * content) is done once, by it, and the others find it done. A worker that dies once the group is up is
 * replaced; one that dies before it is ready stops the group, which exits with an error rather than forking
 * again and again (the worker has said why on stderr).
 */

/** what a worker tells its primary once it serves */
export interface WorkerReady {
  folio: 'ready';
  url: string;
  examplesSeeded: number;
}

export interface WorkerGroup {
  url: string;
  /** example documents the first worker created */
  examplesSeeded: number;
  /** resolves with the exit code the group ends with (a stop, or a worker that failed to start) */
  ended: Promise<number>;
  /** stops every worker gracefully (each closes as a single process does), then releases the data folder */
  stop(): void;
}

/**
 * Below it, `auto` is one process: on 2 cores one process with its reader threads already keeps both busy, and
 * two workers answered 0.44-0.95x of one without writes and 0.15-0.67x with 20 writes a second (docs/workers.md)
 */
const AUTO_MIN_CORES = 4;

/**
 * `server.workers` as a count: `auto` is one per core on the embedded store from AUTO_MIN_CORES cores, else 1
 * (MongoDB: instances scale it there)
 */
export const workerCount = (config: FolioConfig, cores = availableParallelism()): number => {
  if (config.server.workers !== 'auto') return config.server.workers;
  return config.database.client === 'embedded' && cores >= AUTO_MIN_CORES ? cores : 1;
};

/** this process's place in its group, when it is a worker of one (the primary says it in the environment) */
export const groupWorker = (env: NodeJS.ProcessEnv = process.env): GroupWorker | undefined => {
  if (!cluster.isWorker || !cluster.worker) return undefined;
  return { id: Number(env.FOLIO_WORKER_ID), of: Number(env.FOLIO_WORKERS_IN_GROUP), primary: process.ppid };
};

const isReady = (message: unknown): message is WorkerReady => (message as WorkerReady | null)?.folio === 'ready';

export const startWorkerGroup = (count: number, config: FolioConfig, dataDir: string): Promise<WorkerGroup> => {
  mkdirSync(dataDir, { recursive: true });
  const lock: DataDirLock | undefined = config.database.client === 'embedded' ? acquireDataDirLock(dataDir) : undefined;
  // the workers only join the sockets the primary listens on: what a killed server left must go first
  removeControlSockets(dataDir);
  const workers = new Map<number, Worker>();
  let stopping = false;
  let code = 0;
  let endGroup: (code: number) => void = () => undefined;
  const ended = new Promise<number>((resolve) => {
    endGroup = (exitCode) => {
      lock?.release();
      resolve(exitCode);
    };
  });

  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    if (workers.size === 0) endGroup(code);
    for (const worker of workers.values()) worker.process.kill('SIGTERM');
  };

  /** worker number `id` (a replacement keeps the number of the one it replaces); resolves with its ready message */
  const fork = (id: number): Promise<WorkerReady> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork({ FOLIO_WORKER_ID: String(id), FOLIO_WORKERS_IN_GROUP: String(count) });
      workers.set(id, worker);
      let ready = false;
      worker.on('message', (message: unknown) => {
        if (!isReady(message)) return;
        ready = true;
        resolve(message);
      });
      worker.once('exit', (exitCode, signal) => {
        workers.delete(id);
        if (stopping) {
          if (exitCode !== 0) code = 1;
          if (workers.size === 0) endGroup(code);
          return;
        }
        if (!ready) {
          code = 1;
          reject(new Error(`worker ${id} exited with ${signal ?? exitCode} before it was ready`));
          stop();
          return;
        }
        process.stderr.write(`folio: worker ${id} exited with ${signal ?? exitCode}; starting another\n`);
        fork(id).catch((error: Error) => process.stderr.write(`folio: ${error.message}\n`));
      });
    });

  return (async () => {
    try {
      const first = await fork(1);
      await Promise.all(Array.from({ length: count - 1 }, (_, index) => fork(index + 2)));
      return { url: first.url, examplesSeeded: first.examplesSeeded, ended, stop };
    } catch (error) {
      stop();
      await ended;
      throw error;
    }
  })();
};
