import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GridFSBucket, MongoClient } from 'mongodb';
import { MONGODB_TEST_URL } from './server-kind';
import { mongodbDatabase, startTestServer, type TestServer } from '../support/test-server';
import { formOf, request, uploadTestConfig, uploaded, type FileRecord } from '../upload/upload-server';
import { png } from '../upload/images';

/**
 * Uploads on MongoDB go to GridFS by default (bucket folio_uploads): nothing is written to the data
 * folder, files and their image formats are streamed back whole or by byte range, and a replaced or
 * deleted file leaves nothing behind in the bucket.
 */

let server: TestServer;
const database = mongodbDatabase();
const config = uploadTestConfig();
// the configuration as a project on MongoDB has it: no provider named
delete (config.plugins as { upload: { config: Record<string, unknown> } }).upload.config.provider;

beforeAll(async () => {
  server = await startTestServer({ config: { ...config, database } });
});
afterAll(() => server.stop());

const bucketNames = async (): Promise<string[]> =>
  (await server.folio.services.store.collection('folio_uploads.files').find({}, { projection: ['filename'] })).map((file) => String(file.filename)).sort();

const fetchBytes = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${server.url}${path}`, { headers });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
};

const content = Buffer.from(Array.from({ length: 3000 }, (_, index) => `line ${index}\n`).join(''));

test('a file goes to GridFS, not to the data folder, and is served whole', async () => {
  const [file] = await uploaded(server, [{ name: 'log.txt', content, type: 'text/plain' }]);
  expect(file.provider).toBe('gridfs');
  expect(await bucketNames()).toContain(`${file.hash}.txt`);
  expect(existsSync(join(server.folio.services.dataDir, 'uploads'))).toBe(false);
  const { response, bytes } = await fetchBytes(file.url);
  expect(response.status).toBe(200);
  expect(response.headers.get('accept-ranges')).toBe('bytes');
  expect(response.headers.get('content-length')).toBe(String(content.length));
  expect(bytes.equals(content)).toBe(true);
});

test('byte ranges: 206 with Content-Range, a suffix, HEAD, and 416 past the end', async () => {
  const [file] = await uploaded(server, [{ name: 'ranged.txt', content, type: 'text/plain' }]);
  const part = await fetchBytes(file.url, { range: 'bytes=1000-1999' });
  expect(part.response.status).toBe(206);
  expect(part.response.headers.get('content-range')).toBe(`bytes 1000-1999/${content.length}`);
  expect(part.bytes.equals(content.subarray(1000, 2000))).toBe(true);

  const tail = await fetchBytes(file.url, { range: 'bytes=-7' });
  expect(tail.response.status).toBe(206);
  expect(tail.bytes.equals(content.subarray(content.length - 7))).toBe(true);

  const head = await fetch(`${server.url}${file.url}`, { method: 'HEAD' });
  expect(head.headers.get('content-length')).toBe(String(content.length));

  const past = await request(server, file.url, { headers: { range: `bytes=${content.length}-` } });
  expect(past.status).toBe(416);
  expect(past.headers.get('content-range')).toBe(`bytes */${content.length}`);
  expect(past.body).toEqual({ data: null, error: { status: 416, name: 'RangeNotSatisfiableError', message: 'Range Not Satisfiable', details: { size: content.length } } });
});

test('an image and its formats are stored and served from GridFS; a replacement keeps the URLs with the new content', async () => {
  const [image] = await uploaded(server, [{ name: 'photo.png', content: png(1200, 900), type: 'image/png' }]);
  const formats = image.formats as Record<string, { url: string }>;
  expect(Object.keys(formats).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);
  for (const format of Object.values(formats)) expect((await fetchBytes(format.url)).response.status).toBe(200);

  const replacement = png(600, 400);
  const replaced = await request<FileRecord>(server, `/api/upload?id=${image.id}`, { method: 'POST', body: formOf([{ name: 'smaller.png', content: replacement, type: 'image/png' }]), headers: server.asAdmin });
  expect(replaced.status).toBe(200);
  expect(replaced.body.url).toBe(image.url);
  expect((await fetchBytes(image.url)).bytes.equals(replacement)).toBe(true);
  // one stored file per name: the old content and the formats the smaller image has no use for are gone
  expect((await bucketNames()).filter((name) => name.includes(image.hash))).toEqual([`${image.hash}.png`, `small_${image.hash}.png`, `thumbnail_${image.hash}.png`]);
});

test('a deleted file leaves nothing in GridFS and is no longer served', async () => {
  const [image] = await uploaded(server, [{ name: 'doomed.png', content: png(800, 600), type: 'image/png' }]);
  expect((await bucketNames()).filter((name) => name.includes(image.hash)).length).toBeGreaterThan(1);
  const deleted = await request(server, `/api/upload/files/${image.id}`, { method: 'DELETE', headers: server.asAdmin });
  expect(deleted.status).toBe(200);
  expect((await bucketNames()).filter((name) => name.includes(image.hash))).toEqual([]);
  expect((await fetchBytes(image.url)).response.status).toBe(404);
});

test('an instance starting on the database sweeps files no record names, once they are old enough that no upload can still be on its way', async () => {
  const client = await new MongoClient(MONGODB_TEST_URL).connect();
  try {
    const db = client.db(database.options.dbName);
    const bucket = new GridFSBucket(db, { bucketName: 'folio_uploads' });
    for (const name of ['orphan_0123456789.txt', 'arriving_0123456789.txt']) await pipeline(Readable.from([Buffer.from(name)]), bucket.openUploadStream(name));
    const [kept] = await uploaded(server, [{ name: 'kept.txt', content: 'recorded', type: 'text/plain' }]);
    // everything stored two hours ago (the orphan was left by a crash), but for one file that may be another
    // instance's upload whose record is being written
    await db.collection('folio_uploads.files').updateMany({}, { $set: { uploadDate: new Date(Date.now() - 2 * 3600_000) } });
    await db.collection('folio_uploads.files').updateOne({ filename: 'arriving_0123456789.txt' }, { $set: { uploadDate: new Date() } });

    const second = await startTestServer({ config: { ...config, database } });
    try {
      const names = await bucketNames();
      expect(names).not.toContain('orphan_0123456789.txt');
      expect(names).toEqual(expect.arrayContaining(['arriving_0123456789.txt', `${kept.hash}.txt`]));
      expect(await (await fetch(`${second.url}${kept.url}`)).text()).toBe('recorded');
    } finally {
      await second.stop();
    }
  } finally {
    await client.close();
  }
});
