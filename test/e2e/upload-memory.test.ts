import { fork, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FULL_ACCESS_TOKEN } from '../support/test-server';
import { generatedBytes, postMultipart } from '../upload/multipart';
import type { MemoryReport } from '../upload/upload-server-process';
import type { FileRecord } from '../upload/upload-server';

/**
 * Uploads are streamed to disk: a 100 MB upload must not make the server's memory grow by
 * anything like 100 MB. The server runs in a child process so its RSS is its own.
 */

const FILE_BYTES = 100 * 1024 * 1024;
const MB = 1024 * 1024;
// Growth allowed during the upload: buffers and garbage of the stream pipeline, far below the file's size.
const MAX_GROWTH = 40 * MB;

let child: ChildProcess;
let url: string;
let dataDir: string;

const nextMessage = <T>(): Promise<T> =>
  new Promise((done, fail) => {
    child.once('message', (message) => done(message as T));
    child.once('exit', (code) => fail(new Error(`server process exited (${code})`)));
  });

const ask = <T>(message: string): Promise<T> => {
  const answer = nextMessage<T>();
  child.send(message);
  return answer;
};

beforeAll(async () => {
  child = fork(resolve(__dirname, '../upload/upload-server-process.ts'), [], {
    execArgv: ['--expose-gc', '-r', resolve(__dirname, '../support/register-ts.js')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  ({ url, dataDir } = await nextMessage<{ url: string; dataDir: string }>());
}, 30000);

afterAll(async () => {
  const exited = new Promise((done) => child.once('exit', done));
  child.send('stop');
  await exited;
});

test('a 100 MB upload is streamed to disk: the server process grows by far less than the file', async () => {
  const admin = { authorization: `Bearer ${FULL_ACCESS_TOKEN}` };
  // Warm up the upload path (code loaded, store opened), then take the baseline.
  const warmUp = await postMultipart(`${url}/api/upload`, [{ name: 'files', filename: 'warm.bin', content: generatedBytes(MB) }], admin);
  expect(warmUp.status).toBe(201);
  const before = await ask<MemoryReport>('baseline');

  const started = Date.now();
  const response = await postMultipart(`${url}/api/upload`, [{ name: 'files', filename: 'big.bin', type: 'application/octet-stream', content: generatedBytes(FILE_BYTES) }], admin);
  const seconds = (Date.now() - started) / 1000;
  const after = await ask<MemoryReport>('report');

  expect(response.status).toBe(201);
  const [file] = JSON.parse(response.body) as FileRecord[];
  expect(file.size).toBe(Math.round((FILE_BYTES / 1000) * 100) / 100);
  expect(statSync(join(dataDir, 'uploads', `${file.hash}${file.ext}`)).size).toBe(FILE_BYTES);

  const growth = after.sampledPeak - before.rss;
  const maxRssGrowth = after.maxRss - before.maxRss;
  process.stdout.write(
    `upload memory: 100 MB in ${seconds.toFixed(1)} s; server RSS before ${(before.rss / MB).toFixed(1)} MB, ` +
      `sampled peak during upload ${(after.sampledPeak / MB).toFixed(1)} MB (+${(growth / MB).toFixed(1)} MB), ` +
      `process peak RSS (maxRSS) ${(before.maxRss / MB).toFixed(1)} → ${(after.maxRss / MB).toFixed(1)} MB\n`,
  );
  expect(growth).toBeLessThan(MAX_GROWTH);
  expect(maxRssGrowth).toBeLessThan(MAX_GROWTH);
}, 60000);
