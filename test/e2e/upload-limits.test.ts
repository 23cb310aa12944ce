import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TestServer } from '../support/test-server';
import { png } from '../upload/images';
import { generatedBytes, startPartialUpload, postMultipart, type Part } from '../upload/multipart';
import { eventually, expectUploadState, formOf, request, settledUploadState, startUploadServer, storedFiles, upload, uploadDirOf, type FileRecord } from '../upload/upload-server';

const SIZE_LIMIT = 2000;

let server: TestServer;
beforeAll(async () => {
  server = await startUploadServer({ sizeLimit: SIZE_LIMIT, allowedTypes: ['image/*', 'text/plain'] });
});
afterAll(() => server.stop());

interface ErrorBody {
  data: null;
  error: { status: number; name: string; message: string; details: Record<string, unknown> };
}

/** Every rejected upload must leave the upload directory and the files collection as they were. */
const expectNothingLeft = async (run: () => Promise<void>) => {
  const before = await settledUploadState(server);
  await run();
  await expectUploadState(server, before);
};

const file = (filename: string, content: Part['content'], type = 'application/octet-stream'): Part => ({ name: 'files', filename, type, content });
const postParts = (parts: Part[]) => postMultipart(`${server.url}/api/upload`, parts, server.asAdmin);
const errorOf = (body: string) => (JSON.parse(body) as ErrorBody).error;

describe('size limit (upload.config.sizeLimit)', () => {
  test('a file of exactly the limit is accepted', async () => {
    const response = await upload(server, [{ name: 'exact.txt', content: 'a'.repeat(SIZE_LIMIT), type: 'text/plain' }]);
    expect(response.status).toBe(201);
    expect(response.body[0].size).toBe(2);
  });

  test('one byte more is a 413 PayloadTooLargeError, and the partial file is removed', async () => {
    await expectNothingLeft(async () => {
      const response = await upload(server, [{ name: 'over.txt', content: 'a'.repeat(SIZE_LIMIT + 1), type: 'text/plain' }]);
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ data: null, error: { status: 413, name: 'PayloadTooLargeError', message: 'FileTooBig', details: { name: 'over.txt', sizeLimit: SIZE_LIMIT } } });
    });
  });

  test('a 64 MB stream is stopped at the limit: answered at once, the connection closed, the rest never read', async () => {
    await expectNothingLeft(async () => {
      const started = Date.now();
      const response = await postParts([file('huge.txt', generatedBytes(64 * 1024 * 1024), 'text/plain')]);
      expect(response.status).toBe(413);
      expect(response.headers.connection).toBe('close');
      expect(response.bytesSent).toBeLessThan(32 * 1024 * 1024);
      expect(Date.now() - started).toBeLessThan(5000);
    });
  });

  test('a later file over the limit takes the earlier, complete files of the request with it', async () => {
    await expectNothingLeft(async () => {
      const response = await postParts([file('ok.png', png(4, 4), 'image/png'), file('big.txt', 'b'.repeat(SIZE_LIMIT * 3), 'text/plain')]);
      expect(response.status).toBe(413);
    });
  });
});

describe('allowed types, judged from the content', () => {
  test.each([
    ['a PDF named and declared as a PNG', 'cv.png', '%PDF-1.7\n%binary', 'image/png', 'application/pdf'],
    ['HTML declared as HTML', 'page.html', '<html><script>alert(1)</script></html>', 'text/html', 'text/html'],
    ['an executable named and declared as a PNG', 'photo.png', Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0xff, 0xfe]), 'image/png', 'application/octet-stream'],
  ])('%s is a 400 ValidationError naming the detected type', async (_, filename, content, declared, detected) => {
    await expectNothingLeft(async () => {
      const response = await postParts([file(filename, content, declared)]);
      expect(response.status).toBe(400);
      expect(errorOf(response.body)).toMatchObject({ status: 400, name: 'ValidationError', message: `File type ${detected} is not allowed` });
    });
  });

  test('allowed content passes whatever it is called: a PNG declared as a PDF is an image/png', async () => {
    const response = await postParts([file('scan.pdf', png(3, 2), 'application/pdf')]);
    expect(response.status).toBe(201);
    expect((JSON.parse(response.body) as FileRecord[])[0]).toMatchObject({ mime: 'image/png', ext: '.pdf', width: 3, height: 2 });
  });

  test('one refused file refuses the whole request', async () => {
    await expectNothingLeft(async () => {
      const response = await postParts([file('fine.png', png(2, 2), 'image/png'), file('doc.pdf', '%PDF-1.4 x', 'application/pdf')]);
      expect(response.status).toBe(400);
    });
  });
});

describe('fileInfo', () => {
  test.each([
    ['not JSON', '{name: oops', 'fileInfo must be valid JSON'],
    ['an unknown key', '{"title":"x"}', 'fileInfo field has unspecified keys: title'],
    ['a number for a text', '{"caption":42}', 'fileInfo.caption must be a string'],
    ['more entries than files', '[{},{}]', 'fileInfo has 2 entries for 1 file(s)'],
  ])('%s is a 400 ValidationError; the file is not kept', async (_, fileInfo, message) => {
    await expectNothingLeft(async () => {
      const response = await upload(server, [{ name: 'p.png', content: png(2, 2), type: 'image/png' }], fileInfo);
      expect(response.status).toBe(400);
      expect((response.body as unknown as ErrorBody).error).toMatchObject({ name: 'ValidationError', message });
    });
  });

  test('malformed fileInfo on an update is a 400 and changes nothing', async () => {
    const [created] = (await upload(server, [{ name: 'u.png', content: png(2, 2), type: 'image/png' }], { caption: 'before' })).body;
    const response = await request(server, `/api/upload?id=${created.id}`, { method: 'POST', body: formOf([], '{"caption":'), headers: server.asAdmin });
    expect(response.status).toBe(400);
    expect((await request<FileRecord>(server, `/api/upload/files/${created.id}`, { headers: server.asAdmin })).body.caption).toBe('before');
  });
});

describe('no files', () => {
  const filesAreEmpty = { data: null, error: { status: 400, name: 'ValidationError', message: 'Files are empty', details: {} } };

  test('a form with only fileInfo, an empty file input, a JSON body or no body: 400 "Files are empty"', async () => {
    const onlyInfo = await request(server, '/api/upload', { method: 'POST', body: formOf([], { caption: 'x' }), headers: server.asAdmin });
    expect(onlyInfo).toMatchObject({ status: 400, body: filesAreEmpty });
    // What a browser sends for a file input left empty.
    const emptyInput = await postParts([file('', '')]);
    expect(emptyInput.status).toBe(400);
    expect(JSON.parse(emptyInput.body)).toEqual(filesAreEmpty);
    const json = await request(server, '/api/upload', { method: 'POST', body: JSON.stringify({ files: [] }), headers: { ...server.asAdmin, 'content-type': 'application/json' } });
    expect(json).toMatchObject({ status: 400, body: filesAreEmpty });
    const none = await request(server, '/api/upload', { method: 'POST', headers: server.asAdmin });
    expect(none).toMatchObject({ status: 400, body: filesAreEmpty });
  });

  test('a multipart body cut short is a 400', async () => {
    const response = await request<ErrorBody>(server, '/api/upload', {
      method: 'POST',
      body: '--xyz\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nhello',
      headers: { ...server.asAdmin, 'content-type': 'multipart/form-data; boundary=xyz' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/^Malformed multipart body/);
  });
});

describe('file names', () => {
  test('paths and control characters are dropped from the name; the stored name is <hash><ext> in the upload directory', async () => {
    const response = await postParts([file('..\\\\..\\\\..\\\\evil\tname.png', png(2, 2), 'image/png'), file('../../café.png', png(2, 2), 'image/png')]);
    expect(response.status).toBe(201);
    const [evil, cafe] = JSON.parse(response.body) as FileRecord[];
    expect(evil.name).toBe('evilname.png');
    expect(evil.hash).toMatch(/^evilname_[0-9a-f]{10}$/);
    expect(cafe.name).toBe('café.png');
    expect(cafe.hash).toMatch(/^cafe_[0-9a-f]{10}$/);
    expect(storedFiles(server)).toEqual(expect.arrayContaining([`${evil.hash}.png`, `${cafe.hash}.png`]));
    expect(readdirSync(dirname(uploadDirOf(server))).filter((name) => name.includes('evil') || name.includes('caf'))).toEqual([]);
  });

  test('names given in fileInfo are cleaned the same way', async () => {
    const response = await upload(server, [{ name: 'x.png', content: png(2, 2), type: 'image/png' }], { name: '/etc/\u202egnp.exe' });
    expect(response.body[0].name).toBe('gnp.exe');
  });
});

describe('refused and interrupted uploads', () => {
  test('linking on upload (ref, refId, field) is refused rather than silently ignored', async () => {
    await expectNothingLeft(async () => {
      const response = await postParts([file('a.png', png(2, 2), 'image/png'), { name: 'ref', content: 'api::article.article' }, { name: 'refId', content: '1' }, { name: 'field', content: 'cover' }]);
      expect(response.status).toBe(400);
    });
  });

  test('a forbidden upload is answered before its body is read, and the connection closed', async () => {
    const started = Date.now();
    const response = await postMultipart(`${server.url}/api/upload`, [file('big.txt', generatedBytes(64 * 1024 * 1024), 'text/plain')]);
    expect(response.status).toBe(403);
    expect(response.headers.connection).toBe('close');
    expect(response.bytesSent).toBeLessThan(32 * 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('a client that goes away mid-file leaves no partial file and no record, also of the files it had finished', async () => {
    const before = await settledUploadState(server);
    const partial = startPartialUpload(`${server.url}/api/upload`, server.asAdmin, [{ ...file('done.png', png(2, 2), 'image/png'), content: png(2, 2) }], 1500);
    // The server has the finished file and a partial one on disk when the client goes.
    await eventually(() => {
      const now = storedFiles(server);
      return now.some((name) => name.startsWith('done_')) && now.some((name) => name.endsWith('.part'));
    });
    await partial.abort();
    await expectUploadState(server, before);
  });
});
