import { statSync } from 'node:fs';
import { join } from 'node:path';
import { FULL_ACCESS_TOKEN } from '../support/test-server';
import { generatedBytes, postMultipart } from '../upload/multipart';
import { startMemoryServer, type MemoryServer } from '../support/memory-server';
import type { FileRecord } from '../upload/upload-server';

/**
 * Uploads are streamed to disk: a 100 MB upload must not make the server's memory grow by
 * anything like 100 MB. The server runs in a child process so its RSS is its own.
 */

const FILE_BYTES = 100 * 1024 * 1024;
const MB = 1024 * 1024;
// Growth allowed during the upload: buffers and garbage of the stream pipeline, well below the file's size
// (a buffered upload grows by the file at least). Measured +29 to +32 MB alone, up to +51 MB under a loaded
// suite, where the young generation fills with the stream's garbage before a scavenge runs.
const MAX_GROWTH = 64 * MB;

let server: MemoryServer;

beforeAll(async () => {
  server = await startMemoryServer();
}, 30000);

afterAll(() => server.stop());

test('a 100 MB upload is streamed to disk: the server process grows by far less than the file', async () => {
  const admin = { authorization: `Bearer ${FULL_ACCESS_TOKEN}` };
  // Warm up the upload path (code loaded, store opened), then take the baseline.
  const warmUp = await postMultipart(`${server.url}/api/upload`, [{ name: 'files', filename: 'warm.bin', content: generatedBytes(MB) }], admin);
  expect(warmUp.status).toBe(201);
  const before = await server.ask('baseline');

  const started = Date.now();
  const response = await postMultipart(`${server.url}/api/upload`, [{ name: 'files', filename: 'big.bin', type: 'application/octet-stream', content: generatedBytes(FILE_BYTES) }], admin);
  const seconds = (Date.now() - started) / 1000;
  const after = await server.ask('report');

  expect(response.status).toBe(201);
  const [file] = JSON.parse(response.body) as FileRecord[];
  expect(file.size).toBe(Math.round((FILE_BYTES / 1000) * 100) / 100);
  expect(statSync(join(server.dataDir, 'uploads', `${file.hash}${file.ext}`)).size).toBe(FILE_BYTES);

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
