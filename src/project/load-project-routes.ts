import { resolve } from 'node:path';
import type { Models } from '../models/types';
import { loadProjectCode } from './load-project-code';
import { resolveProjectRoutes, type ProjectRouteTable } from './route-table';

/** A project's route table, read from its `src/` once at start: what `folio start` and `folio check` load. */
export const loadProjectRoutes = (schemaDir: string, models: Models, warn: (line: string) => void = (line) => void process.stderr.write(`${line}\n`)): ProjectRouteTable =>
  resolveProjectRoutes(loadProjectCode(resolve(schemaDir), models, warn), models);
