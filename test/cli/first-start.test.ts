import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXAMPLE_SCHEMA } from '../support/test-server';

/**
 * `folio start` (what `npm start` runs) on an empty store creates the example documents of the example
 * models, once, saying so on one line; `--no-examples` and `FOLIO_EXAMPLES=false` skip it.
 */

const CONFIG = resolve(__dirname, '..', '..', 'config');
const ANNOUNCED = /^Empty store: created 8 example documents from examples\.json \(once; --no-examples or FOLIO_EXAMPLES=false skips this\)$/m;

interface Started {
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

/** `folio start` in a process of its own, as a newcomer runs it, until it says it is ready. */
const start = (dataDir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Started> =>
  new Promise((resolveStart, reject) => {
    const child = spawn(
      process.execPath,
      ['-r', require.resolve('../support/register-ts.js'), require.resolve('../../src/cli/run.ts'), 'start', '--schema', EXAMPLE_SCHEMA, '--config', CONFIG, '--data', dataDir, '--port', '0', ...args],
      { env: { ...process.env, NODE_ENV: 'development', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /Folio is ready at (\S+)/.exec(output);
      if (ready) resolveStart({ url: ready[1], output: () => output, stop: () => (child.kill('SIGTERM'), exited) });
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`folio start ended (${code}): ${output}`)));
  });

const titles = async (url: string): Promise<string[]> => {
  const body = (await (await fetch(`${url}/api/articles?sort=title`)).json()) as { data: Array<{ title: string }> };
  return body.data.map(({ title }) => title);
};

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'folio-first-start-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('an empty store gets the examples once, announced on one line; a restart leaves the store as it is', async () => {
  const dataDir = join(root, 'seeded');
  const first = await start(dataDir);
  try {
    expect(first.output()).toMatch(ANNOUNCED);
    expect(await titles(first.url)).toEqual(['Querying with GraphQL', 'Welcome to Folio']);
    const populated = (await (await fetch(`${first.url}/api/articles/examplearticlewelcome001?populate=*`)).json()) as { data: Record<string, unknown> };
    expect(populated.data).toMatchObject({ category: { name: 'News' }, author: { name: 'Ada Lovelace' }, tags: [{ name: 'getting-started' }] });
    const home = (await (await fetch(`${first.url}/api/homepage`)).json()) as { data: { headline: string } };
    expect(home.data.headline).toBe('Folio is running');
  } finally {
    await first.stop();
  }
  const again = await start(dataDir);
  try {
    expect(again.output()).not.toMatch(/example documents/);
    expect(await titles(again.url)).toEqual(['Querying with GraphQL', 'Welcome to Folio']);
  } finally {
    await again.stop();
  }
}, 60_000);

test.each([
  ['--no-examples', ['--no-examples'], {}],
  ['FOLIO_EXAMPLES=false', [], { FOLIO_EXAMPLES: 'false' }],
])('%s: the store stays empty', async (name, args, env) => {
  const server = await start(join(root, name), args, env);
  try {
    expect(server.output()).not.toMatch(/example documents/);
    expect(await titles(server.url)).toEqual([]);
  } finally {
    await server.stop();
  }
}, 60_000);
