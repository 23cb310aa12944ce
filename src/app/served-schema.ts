import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import { loadModels } from '../models/load-models';
import { loadConfig } from '../config/load-config';
import { openStore } from '../storage/open-store';
import { loadExtensions } from '../extensions/load-extensions';
import { loadProjectRoutes } from '../project/load-project-routes';
import { createFolio } from './create-folio';

/**
 * The schema `/graphql` serves for a project, as SDL with its directive marks (`@auth`, `@policy`):
 * built by the very assembly `folio start` runs (models, the built-in modules' parts, extensions,
 * Shadow CRUD switches applied), on a throwaway embedded store, so it needs no database and
 * touches no data.
 */

export interface ServedSchemaOptions {
  schemaDir: string;
  configDir: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Assembles the project as `folio start` does (every start-up check included: config, models,
 * extensions, the project's routes, policies and middlewares, permissions), without its database: the schema it would serve.
 */
export const assembleProject = async ({ schemaDir, configDir, env = process.env }: ServedSchemaOptions): Promise<GraphQLSchema> => {
  const loaded = loadConfig({ configDir: resolve(configDir), env });
  const models = loadModels(resolve(schemaDir), { types: loaded.customFields, relationTargets: loaded.relationTargets, warn: (line) => process.stderr.write(`${line}\n`) });
  const extensions = loadExtensions(resolve(schemaDir), models);
  const projectRoutes = loadProjectRoutes(schemaDir, models);
  // The schema does not depend on the environment or the engine; production's secret checks would only get in the way.
  const config = { ...loaded, env: 'development', database: { client: 'embedded' as const, options: {} } };
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-assemble-'));
  try {
    const store = await openStore(config.database, dataDir);
    try {
      const folio = await createFolio({ models, config, store, dataDir, extensions, projectRoutes });
      await folio.stop();
      return folio.schema;
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
};

export const printServedSchema = async (options: ServedSchemaOptions): Promise<string> => `${printSchemaWithDirectives(await assembleProject(options))}\n`;
