import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestServer } from '../support/test-server';
import { gif, jpeg, png } from '../upload/images';
import {
  bearer,
  FORBIDDEN,
  formOf,
  NOT_FOUND,
  READ_ONLY_TOKEN,
  request,
  startUploadServer,
  storedFiles,
  upload,
  UPLOAD_ONLY_TOKEN,
  uploadDirOf,
  uploaded,
  type FileRecord,
} from '../upload/upload-server';

let server: TestServer;
beforeAll(async () => {
  server = await startUploadServer();
});
afterAll(() => server.stop());

const RECORD_KEYS = [
  'id',
  'documentId',
  'name',
  'alternativeText',
  'caption',
  'focalPoint',
  'width',
  'height',
  'formats',
  'hash',
  'ext',
  'mime',
  'size',
  'url',
  'previewUrl',
  'provider',
  'provider_metadata',
  'createdAt',
  'updatedAt',
  'publishedAt',
];

const pixel = png(8, 8);

describe('POST /api/upload', () => {
  test('answers 201 with the bare array of records, shaped and ordered as Strapi (exchange 85), the file on disk as <hash><ext>', async () => {
    const response = await upload(server, [{ name: 'pixel.png', content: pixel, type: 'image/png' }], { alternativeText: 'a pixel', caption: 'tiny' });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Array.isArray(response.body)).toBe(true);
    const [file] = response.body;
    expect(Object.keys(file)).toEqual([...RECORD_KEYS, 'isUrlSigned']);
    expect(file).toMatchObject({
      name: 'pixel.png',
      alternativeText: 'a pixel',
      caption: 'tiny',
      focalPoint: null,
      width: 8,
      height: 8,
      formats: null,
      ext: '.png',
      mime: 'image/png',
      size: Math.round((pixel.length / 1000) * 100) / 100,
      previewUrl: null,
      provider: 'local',
      provider_metadata: null,
      isUrlSigned: false,
    });
    expect(file.id).toEqual(expect.any(Number));
    expect(file.documentId).toMatch(/^[a-z0-9]{24}$/);
    expect(file.hash).toMatch(/^pixel_[0-9a-f]{10}$/);
    expect(file.url).toBe(`/uploads/${file.hash}.png`);
    expect(file.createdAt).toBe(file.updatedAt);
    expect(file.publishedAt).toBe(file.createdAt);
    expect(readFileSync(join(uploadDirOf(server), `${file.hash}.png`)).equals(pixel)).toBe(true);
  });

  test('several files, fileInfo matched by position; sizes read from each header', async () => {
    const files = await uploaded(
      server,
      [
        { name: 'anim.gif', content: gif(320, 200), type: 'image/gif' },
        { name: 'photo.jpg', content: jpeg(1024, 768, 100_000), type: 'image/jpeg' },
        { name: 'notes.txt', content: 'hello', type: 'text/plain' },
      ],
      [{ caption: 'first' }, { name: 'renamed.jpg', alternativeText: 'second' }],
    );
    expect(files.map((file) => [file.name, file.mime, file.width, file.height, file.caption, file.alternativeText])).toEqual([
      ['anim.gif', 'image/gif', 320, 200, 'first', null],
      ['renamed.jpg', 'image/jpeg', 1024, 768, null, 'second'],
      ['notes.txt', 'text/plain', null, null, null, null],
    ]);
    expect(new Set(files.map((file) => file.id)).size).toBe(3);
  });
});

describe('/uploads/<hash><ext>', () => {
  let file: FileRecord;
  beforeAll(async () => {
    [file] = await uploaded(server, [{ name: 'served.png', content: pixel, type: 'image/png' }]);
  });

  test('serves the bytes with the type judged at upload and their length', async () => {
    const response = await fetch(`${server.url}${file.url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-length')).toBe(String(pixel.length));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await response.arrayBuffer()).equals(pixel)).toBe(true);
  });

  test('HEAD answers the headers only', async () => {
    const response = await fetch(`${server.url}${file.url}`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(pixel.length));
    expect(await response.text()).toBe('');
  });

  test('one byte range is served as 206 with its Content-Range; one past the end is a 416', async () => {
    const part = await fetch(`${server.url}${file.url}`, { headers: { range: 'bytes=8-15' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 8-15/${pixel.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(pixel.subarray(8, 16))).toBe(true);
    const past = await request(server, file.url, { headers: { range: `bytes=${pixel.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${pixel.length}`);
    expect(past.body).toMatchObject({ data: null, error: { status: 416, name: 'RangeNotSatisfiableError' } });
  });

  test('text is served as UTF-8 text; markup types get a sandboxing CSP', async () => {
    const [text, svg] = await uploaded(server, [
      { name: 'note.txt', content: 'héllo', type: 'text/plain' },
      { name: 'logo.svg', content: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', type: 'image/svg+xml' },
    ]);
    expect((await fetch(`${server.url}${text.url}`)).headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const served = await fetch(`${server.url}${svg.url}`);
    expect(served.headers.get('content-type')).toBe('image/svg+xml');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
  });

  test.each([
    ['an unknown file', '/uploads/nothing_0123456789.png'],
    ['an encoded traversal', '/uploads/..%2F..%2Fpackage.json'],
    ['a dot-dot segment', '/uploads/%2e%2e/package.json'],
    ['a temporary name', '/uploads/served_0123456789.part'],
    ['the directory', '/uploads/'],
  ])('%s is the 404 envelope', async (_, path) => {
    const response = await request(server, path);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});

describe('GET /api/upload/files', () => {
  beforeAll(async () => {
    await uploaded(server, [
      { name: 'zebra.png', content: png(2, 2), type: 'image/png' },
      { name: 'alpha.txt', content: 'alpha', type: 'text/plain' },
    ]);
  });

  test('answers the bare array of every file, oldest first; Public may list (exchange 86)', async () => {
    const admin = await request<FileRecord[]>(server, '/api/upload/files', { headers: server.asAdmin });
    expect(admin.status).toBe(200);
    expect(admin.body.length).toBeGreaterThanOrEqual(2);
    expect(admin.body.map((file) => file.id)).toEqual([...admin.body.map((file) => file.id)].sort((a, b) => a - b));
    expect(Object.keys(admin.body[0])).toEqual([...RECORD_KEYS, 'isUrlSigned']);
    const anonymous = await request<FileRecord[]>(server, '/api/upload/files');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual(admin.body);
  });

  test('filters, sort and pagination as the official client sends them', async () => {
    const images = await request<FileRecord[]>(server, '/api/upload/files?filters%5Bmime%5D%5B%24contains%5D=image&sort=name%3Adesc', { headers: server.asAdmin });
    expect(images.status).toBe(200);
    expect(images.body.every((file) => String(file.mime).startsWith('image/'))).toBe(true);
    const names = images.body.map((file) => String(file.name));
    expect(names).toEqual([...names].sort().reverse());
    expect(names).toContain('zebra.png');

    const page = await request<FileRecord[]>(server, '/api/upload/files?sort[0]=id:asc&pagination[page]=2&pagination[pageSize]=1', { headers: server.asAdmin });
    const all = await request<FileRecord[]>(server, '/api/upload/files', { headers: server.asAdmin });
    expect(page.body).toEqual([all.body[1]]);

    const text = await request<FileRecord[]>(server, '/api/upload/files?filters[$or][0][name][$eq]=alpha.txt&filters[$or][1][id][$eq]=-1', { headers: server.asAdmin });
    expect(text.body.map((file) => file.name)).toEqual(['alpha.txt']);
  });

  test('an unknown filter or sort field is a 400 ValidationError', async () => {
    const filter = await request<{ error: { status: number; name: string; message: string } }>(server, '/api/upload/files?filters[secret][$eq]=1', { headers: server.asAdmin });
    expect(filter.status).toBe(400);
    expect(filter.body.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'Invalid key secret' });
    const sort = await request(server, '/api/upload/files?sort=secret', { headers: server.asAdmin });
    expect(sort.status).toBe(400);
  });

  test("compiled onto the schema's uploadFiles_connection, as content routes are: fields, every filter of UploadFileFiltersInput, v4's start/limit", async () => {
    const all = await request<FileRecord[]>(server, '/api/upload/files?sort=id:asc', { headers: server.asAdmin });
    const [first, second] = all.body;
    const picked = await request<FileRecord[]>(server, `/api/upload/files?fields[0]=name&filters[id][$in][0]=${second.id}`, { headers: server.asAdmin });
    expect(picked.body).toEqual([{ id: second.id, documentId: second.documentId, name: second.name, isUrlSigned: false }]);
    const noPreview = await request<FileRecord[]>(server, '/api/upload/files?filters[previewUrl][$null]=true&filters[publishedAt][$notNull]=true', { headers: server.asAdmin });
    expect(noPreview.body.length).toBe(all.body.length);
    const offset = await request<FileRecord[]>(server, '/api/upload/files?sort=id:asc&start=1&limit=1', { headers: server.asAdmin });
    expect(offset.body.map((file) => file.id)).toEqual([second.id]);
    expect(first.id).toBeLessThan(second.id);
  });
});

describe('GET /api/upload/files/:id', () => {
  test('answers the bare record', async () => {
    const [file] = await uploaded(server, [{ name: 'one.png', content: pixel, type: 'image/png' }]);
    const response = await request<FileRecord>(server, `/api/upload/files/${file.id}`, { headers: server.asAdmin });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(file);
  });

  test.each(['999999', 'abc', '1.5'])('%s is the 404 envelope', async (id) => {
    const response = await request(server, `/api/upload/files/${id}`, { headers: server.asAdmin });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(NOT_FOUND);
  });

  test('Public has no findOne: 403 ForbiddenError (exchange 87)', async () => {
    const response = await request(server, '/api/upload/files/1');
    expect(response.status).toBe(403);
    expect(response.body).toEqual(FORBIDDEN);
  });
});

describe('POST /api/upload?id=', () => {
  test('a multipart body holding only fileInfo updates the metadata: 200 with the record', async () => {
    const [file] = await uploaded(server, [{ name: 'before.png', content: pixel, type: 'image/png' }], { caption: 'kept' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const form = new FormData();
    form.append('fileInfo', JSON.stringify({ name: 'after.png', alternativeText: 'new alt', caption: null }));
    const response = await request<FileRecord>(server, `/api/upload?id=${file.id}`, { method: 'POST', body: form, headers: server.asAdmin });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...file, name: 'after.png', alternativeText: 'new alt', caption: 'kept', updatedAt: expect.any(String) });
    expect(response.body.updatedAt).not.toBe(file.updatedAt);
    const stored = await request<FileRecord>(server, `/api/upload/files/${file.id}`, { headers: server.asAdmin });
    expect(stored.body).toEqual(response.body);
  });

  test('with a file, replaces the content under the same URL (hash and extension kept, as in Strapi)', async () => {
    const [file] = await uploaded(server, [{ name: 'small.png', content: png(4, 4), type: 'image/png' }], { alternativeText: 'alt' });
    const bigger = png(64, 32);
    const response = await request<FileRecord>(server, `/api/upload?id=${file.id}`, {
      method: 'POST',
      body: formOf([{ name: 'big.png', content: bigger, type: 'image/png' }]),
      headers: server.asAdmin,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: file.id, documentId: file.documentId, url: file.url, hash: file.hash, name: 'big.png', width: 64, height: 32, alternativeText: 'alt' });
    expect(Buffer.from(await (await fetch(`${server.url}${file.url}`)).arrayBuffer()).equals(bigger)).toBe(true);
  });

  test('an unknown id is a 404; two ids are a 400; an update with nothing to update is a 400', async () => {
    const form = () => formOf([], { caption: 'x' });
    const missing = await request(server, '/api/upload?id=999999', { method: 'POST', body: form(), headers: server.asAdmin });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
    const two = await request<{ error: { message: string } }>(server, '/api/upload?id=1&id=2', { method: 'POST', body: form(), headers: server.asAdmin });
    expect(two.status).toBe(400);
    expect(two.body.error.message).toBe('File id is required and must be a single value');
    const [file] = await uploaded(server, [{ name: 'x.png', content: pixel, type: 'image/png' }]);
    const empty = await request(server, `/api/upload?id=${file.id}`, { method: 'POST', body: new FormData(), headers: server.asAdmin });
    expect(empty.status).toBe(400);
  });

  test('replacing with several files is a 400 that keeps neither', async () => {
    const [file] = await uploaded(server, [{ name: 'keep.png', content: pixel, type: 'image/png' }]);
    const before = storedFiles(server);
    const body = formOf([
      { name: 'a.png', content: png(2, 2), type: 'image/png' },
      { name: 'b.png', content: png(3, 3), type: 'image/png' },
    ]);
    const response = await request<{ error: { message: string } }>(server, `/api/upload?id=${file.id}`, { method: 'POST', body, headers: server.asAdmin });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('Cannot replace a file with multiple ones');
    expect(storedFiles(server)).toEqual(before);
    expect((await request<FileRecord>(server, `/api/upload/files/${file.id}`, { headers: server.asAdmin })).body).toEqual(file);
  });
});

describe('DELETE /api/upload/files/:id', () => {
  test('answers 200 with the deleted record (the JS client reads it) and removes the stored file', async () => {
    const [file] = await uploaded(server, [{ name: 'doomed.png', content: pixel, type: 'image/png' }]);
    const path = join(uploadDirOf(server), `${file.hash}${file.ext}`);
    expect(existsSync(path)).toBe(true);
    const response = await request<FileRecord>(server, `/api/upload/files/${file.id}`, { method: 'DELETE', headers: server.asAdmin });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(file);
    expect(existsSync(path)).toBe(false);
    expect((await fetch(`${server.url}${file.url}`)).status).toBe(404);
    expect((await request(server, `/api/upload/files/${file.id}`, { headers: server.asAdmin })).status).toBe(404);
    expect((await request(server, `/api/upload/files/${file.id}`, { method: 'DELETE', headers: server.asAdmin })).body).toEqual(NOT_FOUND);
  });
});

describe('permissions', () => {
  const send = (headers: Record<string, string>) => upload(server, [{ name: 'p.png', content: pixel, type: 'image/png' }], undefined, headers);

  test('Public cannot upload, read one or delete: 403 ForbiddenError', async () => {
    expect(await send({})).toMatchObject({ status: 403, body: FORBIDDEN });
    expect((await request(server, '/api/upload/files/1', { method: 'DELETE' })).body).toEqual(FORBIDDEN);
  });

  test('a bad token is a 401 UnauthorizedError, even where Public could list', async () => {
    const bad = bearer('not-a-token');
    const expected = { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } };
    expect(await send(bad)).toMatchObject({ status: 401, body: expected });
    expect(await request(server, '/api/upload/files', { headers: bad })).toMatchObject({ status: 401, body: expected });
  });

  test('a read-only token reads but cannot upload or delete', async () => {
    const [file] = await uploaded(server, [{ name: 'r.png', content: pixel, type: 'image/png' }]);
    const reader = bearer(READ_ONLY_TOKEN);
    expect((await request(server, '/api/upload/files', { headers: reader })).status).toBe(200);
    expect((await request(server, `/api/upload/files/${file.id}`, { headers: reader })).status).toBe(200);
    expect((await send(reader)).status).toBe(403);
    expect((await request(server, `/api/upload/files/${file.id}`, { method: 'DELETE', headers: reader })).status).toBe(403);
  });

  test('a token with only the upload permission uploads and updates, but cannot list', async () => {
    const uploader = bearer(UPLOAD_ONLY_TOKEN);
    const created = await send(uploader);
    expect(created.status).toBe(201);
    const update = await request(server, `/api/upload?id=${created.body[0].id}`, { method: 'POST', body: formOf([], { caption: 'c' }), headers: uploader });
    expect(update.status).toBe(200);
    expect((await request(server, '/api/upload/files', { headers: uploader })).status).toBe(403);
  });
});
