import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXAMPLE_SCHEMA } from '../support/test-server';

/**
 * What `folio start` loads before it is asked for more than anonymous reads: not the libraries only some
 * requests or configurations need (each is tens of milliseconds of every start). yup validates writes,
 * jsonwebtoken signs and verifies users' tokens, the MongoDB driver serves `DATABASE_URL=mongodb://…`, lmdb moves
 * an older data folder, prom-client serves `/metrics`, mingo tests the filters native predicates do not cover, ws and graphql-ws serve
 * subscriptions over WebSocket.
 */

const CONFIG = resolve(__dirname, '..', '..', 'config');
const NOT_AT_START = ['yup', 'jsonwebtoken', 'mongodb', 'lmdb', 'prom-client', 'mingo', 'ws', 'graphql-ws'];

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'folio-start-modules-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** `folio start` on `dataDir` until ready: its address, its exit, and the packages it had loaded when it exited */
const start = async (dataDir: string) => {
  const listing = join(root, `loaded-${Date.now()}.txt`);
  const child = spawn(
    process.execPath,
    [
      '-r', require.resolve('../support/register-ts.js'),
      '-r', require.resolve('../support/loaded-modules.js'),
      require.resolve('../../src/cli/run.ts'),
      'start', '--schema', EXAMPLE_SCHEMA, '--config', CONFIG, '--data', dataDir, '--port', '0', '--no-examples',
    ],
    { env: { ...process.env, NODE_ENV: 'development', FOLIO_LOADED_MODULES_FILE: listing }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const url = await new Promise<string>((resolveUrl, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /Folio is ready at (\S+)/.exec(output);
      if (ready) resolveUrl(ready[1]);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => reject(new Error(`folio start ended (${code}): ${output}`)));
  });
  return {
    url,
    async stop(): Promise<Set<string>> {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      return new Set(readFileSync(listing, 'utf8').split('\n').flatMap((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? []));
    },
  };
};

test('a start that serves anonymous reads loads no library only writes, users, MongoDB, metrics, unusual filters or WebSockets need', async () => {
  const dataDir = join(root, 'data');
  // the first start of a folder writes its roles (and validates them); the next has nothing to write
  await (await start(dataDir)).stop();
  const again = await start(dataDir);
  expect((await fetch(`${again.url}/api/articles`)).status).toBe(200);
  const graphql = await fetch(`${again.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ articles { title } }' }) });
  expect(await graphql.json()).toEqual({ data: { articles: [] } });
  const packages = await again.stop();
  expect(packages.has('graphql')).toBe(true);
  expect(NOT_AT_START.filter((name) => packages.has(name))).toEqual([]);
});
