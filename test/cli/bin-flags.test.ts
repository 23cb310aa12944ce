import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXAMPLE_SCHEMA } from '../support/test-server';

/**
 * `bin/folio.js`, run as the executable `npm start`, `npx folio` and the Docker image run, starts Node.js
 * with the flags of its first line (a larger young generation: see the comment there). It runs the build
 * (`dist/`), which `npm install` makes.
 */

const ROOT = resolve(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'folio.js');

test('the server runs with --max-semi-space-size=64 and answers', async () => {
  expect(existsSync(join(ROOT, 'dist', 'src', 'cli', 'run.js'))).toBe(true); // else: npm run build
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-bin-flags-'));
  const child = spawn(BIN, ['start', '--schema', EXAMPLE_SCHEMA, '--config', join(ROOT, 'config'), '--data', dataDir, '--port', '0', '--no-examples'], {
    env: { ...process.env, NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  try {
    const url = await new Promise<string>((ready, fail) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /ready at (\S+)/.exec(output);
        if (match) ready(match[1]);
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      void exited.then(() => fail(new Error(`bin/folio.js ended before it was ready: ${output}`)));
    });
    // `env -S` execs node in place: the child's pid is the server's
    const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
    expect(argv).toContain('--max-semi-space-size=64');
    expect(argv).toContain(BIN);
    expect((await fetch(`${url}/api/articles`)).status).toBe(200);
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
