import { resolve } from 'node:path';
import { loadModels } from '../models/load-models';
import { loadConfig } from '../config/load-config';
import { openStore } from '../storage/open-store';
import { loadExtensions } from '../extensions/load-extensions';
import { loadProjectRoutes } from '../project/load-project-routes';
import { createFolio, type Folio } from './create-folio';
import { listen, type RunningServer } from '../server/http-server';
import { seedExamples } from './seed-examples';
import { steerHeapGrowth } from './heap-growth';
import { threadsTakeDefaultSemiSpaces } from './thread-heaps';
import type { FolioConfig } from '../config/types';

/** Loads everything from disk and starts listening: what `folio start` and the end-to-end tests run. */

export interface StartOptions {
  schemaDir: string;
  configDir: string;
  dataDir: string;
  host?: string;
  port?: number;
  env?: NodeJS.ProcessEnv;
  /** create the schema folder's example documents in an empty store, once (`folio start`; never in production) */
  examples?: boolean;
  /** `--workers`: beats `FOLIO_WORKERS` and `server.workers` */
  workers?: FolioConfig['server']['workers'];
  /** this process is one of a worker group's (worker-group.ts) */
  worker?: GroupWorker;
}

export interface GroupWorker {
  /** its number, from 1 */
  id: number;
  /** workers in the group */
  of: number;
  /** the group's primary, which holds the data folder's lock */
  primary: number;
}

export interface StartedFolio extends RunningServer {
  folio: Folio;
  /** example documents created at this start */
  examplesSeeded: number;
}

/** the configuration `folio start` runs with: the files, then the environment, then the flags */
export const loadStartConfig = (options: StartOptions): FolioConfig =>
  loadConfig({ configDir: resolve(options.configDir), env: options.env ?? process.env, overrides: { host: options.host, port: options.port, workers: options.workers } });

export const startFolio = async (options: StartOptions): Promise<StartedFolio> => {
  const schemaDir = resolve(options.schemaDir);
  const config = loadStartConfig(options);
  threadsTakeDefaultSemiSpaces();
  const models = loadModels(schemaDir, { types: config.customFields, relationTargets: config.relationTargets, warn: (line) => process.stderr.write(`${line}\n`) });
  const extensions = loadExtensions(schemaDir, models);
  const projectRoutes = loadProjectRoutes(schemaDir, models);
  const dataDir = resolve(options.dataDir);
  const { worker } = options;
  const store = await openStore(config.database, dataDir, worker && { lockHolder: worker.primary, workers: worker.of });
  try {
    const folio = await createFolio({ models, config, store, dataDir, extensions, projectRoutes });
    let examplesSeeded: number;
    let running: RunningServer;
    try {
      examplesSeeded = options.examples && config.env !== 'production' ? await seedExamples(folio.services, schemaDir) : 0;
      running = await listen(folio, config.server.host, config.server.port, { worker: worker?.id });
    } catch (error) {
      await folio.stop();
      throw error;
    }
    // a process-wide V8 setting: the server's own, so `folio start` sets it (in each worker), not createFolio
    const heapGrowth = steerHeapGrowth(config.server.softMemoryLimit, config.server.heapGrowingPercent);
    return {
      ...running,
      folio,
      examplesSeeded,
      close: async () => {
        heapGrowth.stop();
        await running.close();
        await folio.stop();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
};
