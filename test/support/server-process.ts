import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLE_SCHEMA, withTestDatabase, type ConfigFiles } from './test-server';

/**
 * Folio in a child process (`folio start` on the TypeScript sources), for tests that must see the
 * process itself: one that dies of an unhandled error, one killed with -9. In-process, jest would
 * swallow the error that ends a real server.
 */

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** what the process wrote to stderr so far */
  stderr(): string;
  /** the exit code (or signal) once the process has ended; undefined while it runs */
  exited(): number | string | undefined;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** The files as given, plus the test run's database where FOLIO_TEST_DATABASE asks for one (see withTestDatabase), named after `dataDir`. */
export const writeConfigFiles = (configDir: string, files: ConfigFiles, dataDir?: string) => {
  for (const [name, content] of Object.entries(withTestDatabase(files, dataDir))) writeFileSync(join(configDir, `${name}.json`), JSON.stringify(content));
};

/**
 * The V8 flags `folio start` runs with in production: those of bin/folio.js's first line (`#!/usr/bin/env -S node …`),
 * which `npm start` and the Docker image go through. Servers whose memory is measured (fuzz, memory probe) take them.
 */
export const productionNodeArgs = (): string[] => {
  const shebang = readFileSync(join(__dirname, '../../bin/folio.js'), 'utf8').split('\n', 1)[0];
  return shebang.split(/\s+/).filter((word) => word.startsWith('--'));
};

/** `nodeArgs`: V8 and Node flags for the server's process (productionNodeArgs) */
export const startServerProcess = async (options: { configDir: string; dataDir: string; schemaDir?: string; env?: NodeJS.ProcessEnv; nodeArgs?: string[] }): Promise<ServerProcess> => {
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      '-r', require.resolve('./register-ts.js'),
      require.resolve('../../src/cli/run.ts'),
      'start', '--schema', options.schemaDir ?? EXAMPLE_SCHEMA, '--config', options.configDir, '--data', options.dataDir, '--host', '127.0.0.1', '--port', '0',
    ],
    // no example documents: a test's store holds what the test wrote (test/cli/first-start covers the examples)
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'test', FOLIO_EXAMPLES: 'false', ...options.env } },
  );
  let errors = '';
  let exit: number | string | undefined;
  child.stderr!.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const ended = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = code ?? signal ?? undefined;
      resolve();
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /ready at (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    void ended.then(() => reject(new Error(`folio exited with ${exit} before it was ready:\n${errors}`)));
  });
  return {
    url,
    child,
    stderr: () => errors,
    exited: () => exit,
    async stop(signal = 'SIGTERM') {
      if (exit === undefined) child.kill(signal);
      await ended;
    },
  };
};
