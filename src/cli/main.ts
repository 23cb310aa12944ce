import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { StartOptions } from '../app/start-folio';
import type { WorkerGroup, WorkerReady } from '../app/worker-group';
import { workersOf } from '../config/resolve-server';
import { EXAMPLES_FILE } from '../app/seed-examples';
import { parseArgs, portOf } from './parse-args';
import { PERSISTED_USAGE, TOKEN_USAGE, WEBHOOK_USAGE } from './usage';

// Each command loads what it runs when it runs (import() below): `folio --help` and a mistyped command print
// their usage without loading the server, the store and GraphQL (1.3 s -> 0.1 s a process).

const USAGE = `Usage:
  folio start [--schema DIR] [--config DIR] [--data DIR] [--port N] [--host H] [--workers N|auto] [--no-examples]
  folio sdl   [--schema DIR] [--config DIR]
  folio check [--schema DIR] [--config DIR]                        (every start-up check, without starting: exit 1 on a mistake)
  folio export [--config DIR] [--data DIR] [--file FILE]           (NDJSON to stdout or FILE)
  folio import [--config DIR] [--data DIR] [--file FILE] [--replace]
${TOKEN_USAGE}
${WEBHOOK_USAGE}
${PERSISTED_USAGE}`;

const FLAGS = new Set(['schema', 'config', 'data', 'port', 'host', 'file', 'workers']);
const SWITCHES = new Set(['replace', 'no-examples']);

/** A folder named on the command line must exist: a mistyped `--config` would otherwise run on every default. */
const existingFolder = (flag: string, path: string): string => {
  if (!existsSync(path) || !statSync(path).isDirectory()) throw new Error(`--${flag} ${path}: no such folder`);
  return path;
};

const defaults = (flags: Record<string, string>) => ({
  schemaDir: flags.schema === undefined ? resolve('schema') : existingFolder('schema', resolve(flags.schema)),
  configDir: flags.config === undefined ? resolve('config') : existingFolder('config', resolve(flags.config)),
  dataDir: resolve(flags.data ?? '.data'),
});

const start = async (flags: Record<string, string>) => {
  const { loadStartConfig, startFolio } = await import('../app/start-folio');
  const { groupWorker, startWorkerGroup, workerCount } = await import('../app/worker-group');
  const examples = flags['no-examples'] !== 'true' && process.env.FOLIO_EXAMPLES !== 'false';
  const options: StartOptions = { ...defaults(flags), host: flags.host, port: portOf(flags.port), examples, workers: workersFlag(flags.workers), worker: groupWorker() };
  if (!options.worker) {
    const config = loadStartConfig(options);
    const count = workerCount(config);
    if (count > 1) return startGroup(await startWorkerGroup(count, config, options.dataDir), count);
  }
  const running = await startFolio(options);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    running.close().then(
      () => process.exit(0),
      (error: Error) => {
        process.stderr.write(`${error.message}\n`);
        process.exit(1);
      },
    );
  };
  // before saying it is ready: a SIGTERM sent on reading that line found no handler when this process was
  // descheduled between the write and these lines (seen under a loaded test run), and ended it unclosed
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  if (running.examplesSeeded > 0) process.stdout.write(examplesLine(running.examplesSeeded));
  if (options.worker) process.send?.({ folio: 'ready', url: running.url, examplesSeeded: running.examplesSeeded } satisfies WorkerReady);
  else process.stdout.write(`Folio is ready at ${running.url}\n`);
};

const examplesLine = (count: number): string =>
  `Empty store: created ${count} example documents from ${EXAMPLES_FILE} (once; --no-examples or FOLIO_EXAMPLES=false skips this)\n`;

/** The primary of a worker group: says when all serve, stops them on SIGTERM or SIGINT, exits as the group ends. */
const startGroup = (group: WorkerGroup, count: number) => {
  // the handlers before the line, as for one process
  process.once('SIGTERM', group.stop);
  process.once('SIGINT', group.stop);
  void group.ended.then((code) => process.exit(code));
  process.stdout.write(`Folio is ready at ${group.url} (${count} workers)\n`);
};

const workersFlag = (value: string | undefined): StartOptions['workers'] => {
  if (value === undefined) return undefined;
  const workers = workersOf(value);
  if (workers === undefined) throw new Error(`--workers must be "auto" or an integer from 1 to 256, got "${value}"`);
  return workers;
};

const sdl = async (flags: Record<string, string>) => {
  const { schemaDir, configDir } = defaults(flags);
  const { printServedSchema } = await import('../app/served-schema');
  process.stdout.write(await printServedSchema({ schemaDir, configDir }));
};

const check = async (flags: Record<string, string>) => {
  const { schemaDir, configDir } = defaults(flags);
  const { assembleProject } = await import('../app/served-schema');
  const schema = await assembleProject({ schemaDir, configDir });
  const queries = Object.keys(schema.getQueryType()?.getFields() ?? {}).length;
  process.stdout.write(`${schemaDir} with ${configDir}: no problem found (${queries} queries served)\n`);
};

const HELP = new Set(['--help', '-h', 'help']);

/** The usage lines of one command (`folio token …`), or all of them. */
const usageOf = (command?: string): string => {
  const lines = USAGE.split('\n').filter((line) => command === undefined || line.trimStart().startsWith(`folio ${command} `));
  return lines.length > 0 && command !== undefined ? `Usage:\n${lines.join('\n')}\n` : `${USAGE}\n`;
};

export const main = async (argv: string[]): Promise<void> => {
  // `folio --help`, `folio help [COMMAND]`, `folio COMMAND … --help`: the usage, on stdout, nothing run
  if (argv.length === 0 || HELP.has(argv[0])) return void process.stdout.write(usageOf(argv[0] === 'help' ? argv[1] : undefined));
  if (argv.some((arg) => HELP.has(arg))) return void process.stdout.write(usageOf(argv[0]));
  // `token` and `webhook` have their own flags and subcommands.
  if (argv[0] === 'token') return (await import('./token-command')).runTokenCommand(argv.slice(1));
  if (argv[0] === 'webhook') return (await import('./webhook-command')).runWebhookCommand(argv.slice(1));
  if (argv[0] === 'persisted') return (await import('./persisted-command')).runPersistedCommand(argv.slice(1));
  const { command, flags } = parseArgs(argv, FLAGS, SWITCHES);
  switch (command) {
    case 'start':
      return start(flags);
    case 'sdl':
      return sdl(flags);
    case 'check':
      return check(flags);
    case 'export':
      return (await import('./transfer-commands')).exportCommand({ ...defaults(flags), file: flags.file });
    case 'import':
      return (await import('./transfer-commands')).importCommand({ ...defaults(flags), file: flags.file, replace: flags.replace === 'true' });
    default:
      throw new Error(command ? `Unknown command "${command}"\n${USAGE}` : USAGE);
  }
};
