import { statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { TestServer } from '../support/test-server';
import { png } from '../upload/images';
import { formOf, request, startUploadServer, storedFiles, uploadDirOf, uploaded, type FileRecord } from '../upload/upload-server';

/** Strapi's responsive formats: a thumbnail and breakpoint versions of raster images, stored and served beside them. */

type Format = Record<string, unknown> & { name: string; hash: string; ext: string; mime: string; width: number; height: number; sizeInBytes: number; url: string };
type Formats = Record<string, Format>;

const FORMAT_KEYS = ['name', 'hash', 'ext', 'mime', 'path', 'width', 'height', 'size', 'sizeInBytes', 'url'];

let server: TestServer;
beforeAll(async () => {
  server = await startUploadServer();
});
afterAll(() => server.stop());

const image = (name: string, width: number, height: number) => ({ name, content: png(width, height), type: 'image/png' });
const formatsOf = (file: FileRecord): Formats => file.formats as Formats;
/** Every stored name a record names: its file and its formats' files. */
const namesOf = (file: FileRecord): string[] => [file.url, ...Object.values(formatsOf(file) ?? {}).map((format) => format.url)].map((url) => url.slice('/uploads/'.length));
const dimensionsOf = (formats: Formats) => Object.fromEntries(Object.entries(formats).map(([key, format]) => [key, [format.width, format.height]]));

/** What `/uploads/...` serves at `url`: status, type, and the size sharp reads from the bytes. */
const served = async (url: string) => {
  const response = await fetch(`${server.url}${url}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) return { status: response.status };
  const { width, height, format } = await sharp(bytes).metadata();
  return { status: response.status, type: response.headers.get('content-type'), length: bytes.length, width, height, format };
};

describe('a 1200×900 PNG', () => {
  let file: FileRecord;
  beforeAll(async () => {
    [file] = await uploaded(server, [image('photo.png', 1200, 900)], [{ name: 'holiday.png' }]);
  });

  test('gets thumbnail (inside 245×156) and large, medium, small (inside their breakpoint), shaped as Strapi\'s', () => {
    const formats = formatsOf(file);
    expect(dimensionsOf(formats)).toEqual({ thumbnail: [208, 156], large: [1000, 750], medium: [750, 563], small: [500, 375] });
    for (const [key, format] of Object.entries(formats)) {
      expect(Object.keys(format)).toEqual(FORMAT_KEYS);
      expect(format).toEqual({
        name: `${key}_holiday.png`,
        hash: `${key}_${file.hash}`,
        ext: '.png',
        mime: 'image/png',
        path: null,
        width: format.width,
        height: format.height,
        size: Math.round((format.sizeInBytes / 1000) * 100) / 100,
        sizeInBytes: statSync(join(uploadDirOf(server), `${key}_${file.hash}.png`)).size,
        url: `/uploads/${key}_${file.hash}.png`,
      });
    }
  });

  test('each format URL serves an image of the format\'s dimensions', async () => {
    for (const format of Object.values(formatsOf(file))) {
      expect(await served(format.url)).toEqual({ status: 200, type: 'image/png', length: format.sizeInBytes, width: format.width, height: format.height, format: 'png' });
    }
  });

  test('reading the record (REST and GraphQL) shows the same formats', async () => {
    const one = await request<FileRecord>(server, `/api/upload/files/${file.id}`, { headers: server.asAdmin });
    expect(one.body.formats).toEqual(file.formats);
    const { body } = await server.gql<{ uploadFile: { formats: unknown } }>('query($id: ID!) { uploadFile(documentId: $id) { formats } }', { id: file.documentId }, server.asAdmin);
    expect(body.data!.uploadFile.formats).toEqual(file.formats);
  });

  test('a populated media attribute carries them', async () => {
    const created = await request<{ data: { documentId: string } }>(server, '/api/articles?populate[cover]=true', {
      method: 'POST',
      headers: { ...server.asAdmin, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { title: 'With formats', cover: file.id } }),
    });
    const read = await request<{ data: { cover: FileRecord } }>(server, `/api/articles/${created.body.data.documentId}?populate[cover]=true`);
    expect(read.body.data.cover.formats).toEqual(file.formats);
  });
});

describe('which files get which formats', () => {
  test('an 8×8 PNG (as in Strapi\'s exchange 85) and a text file get formats null, and nothing is stored beside them', async () => {
    const files = await uploaded(server, [image('pixel.png', 8, 8), { name: 'notes.txt', content: 'hello', type: 'text/plain' }]);
    expect(files.map((file) => file.formats)).toEqual([null, null]);
    for (const file of files) expect(storedFiles(server).filter((name) => name.includes(file.hash))).toEqual([`${file.hash}${file.ext}`]);
  });

  test('a 600×400 image gets thumbnail and small only; other format names are not served', async () => {
    const [file] = await uploaded(server, [image('mid.png', 600, 400)]);
    expect(dimensionsOf(formatsOf(file))).toEqual({ thumbnail: [234, 156], small: [500, 333] });
    expect(storedFiles(server).filter((name) => name.includes(file.hash))).toEqual(namesOf(file).sort());
    expect(await served(`/uploads/medium_${file.hash}.png`)).toEqual({ status: 404 });
  });

  test('a tall image is fitted by its height; an image only taller than the thumbnail box gets a thumbnail', async () => {
    const [tall, narrow] = await uploaded(server, [image('tall.png', 300, 800), image('narrow.png', 100, 200)]);
    expect(dimensionsOf(formatsOf(tall))).toEqual({ thumbnail: [58, 156], medium: [281, 750], small: [188, 500] });
    expect(dimensionsOf(formatsOf(narrow))).toEqual({ thumbnail: [78, 156] });
  });

  test('a JPEG\'s formats are JPEGs', async () => {
    const content = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366cc' } }).jpeg().toBuffer();
    const [file] = await uploaded(server, [{ name: 'photo.jpg', content, type: 'image/jpeg' }]);
    expect(dimensionsOf(formatsOf(file))).toEqual({ thumbnail: [208, 156], medium: [750, 563], small: [500, 375] });
    expect(formatsOf(file).small).toMatchObject({ ext: '.jpg', mime: 'image/jpeg', url: `/uploads/small_${file.hash}.jpg` });
    expect(await served(formatsOf(file).small.url)).toMatchObject({ status: 200, type: 'image/jpeg', format: 'jpeg', width: 500, height: 375 });
  });

  test('an image sharp cannot decode is stored without formats, and nothing is left beside it', async () => {
    const whole = png(1200, 900);
    // The header (and so the size) is intact; the pixel data stops half-way.
    const broken = whole.subarray(0, whole.length - 40);
    const [file] = await uploaded(server, [{ name: 'broken.png', content: broken, type: 'image/png' }]);
    expect(file).toMatchObject({ width: 1200, height: 900, formats: null });
    expect(storedFiles(server).filter((name) => name.includes(file.hash))).toEqual([`${file.hash}.png`]);
  });
});

describe('deleting and replacing', () => {
  test('DELETE removes the file and every format file', async () => {
    const [file] = await uploaded(server, [image('doomed.png', 1200, 900)]);
    expect(storedFiles(server)).toEqual(expect.arrayContaining(namesOf(file)));
    const deleted = await request(server, `/api/upload/files/${file.id}`, { method: 'DELETE', headers: server.asAdmin });
    expect(deleted.status).toBe(200);
    expect(storedFiles(server).filter((name) => name.includes(file.hash))).toEqual([]);
    expect(await served(formatsOf(file).thumbnail.url)).toEqual({ status: 404 });
  });

  test('GraphQL deleteUploadFile removes them too', async () => {
    const [file] = await uploaded(server, [image('doomed-gql.png', 600, 400)]);
    const { body } = await server.gql('mutation($id: ID!) { deleteUploadFile(id: $id) { formats } }', { id: String(file.id) }, server.asAdmin);
    expect(body).toEqual({ data: { deleteUploadFile: { formats: file.formats } } });
    expect(storedFiles(server).filter((name) => name.includes(file.hash))).toEqual([]);
  });

  test('replacing with a smaller image swaps the formats: same URLs for the formats it keeps, none left of the others', async () => {
    const [file] = await uploaded(server, [image('swap.png', 1200, 900)]);
    const response = await request<FileRecord>(server, `/api/upload?id=${file.id}`, { method: 'POST', body: formOf([image('smaller.png', 600, 400)]), headers: server.asAdmin });
    expect(response.status).toBe(200);
    const replaced = response.body;
    expect(replaced).toMatchObject({ url: file.url, name: 'smaller.png', width: 600, height: 400 });
    expect(dimensionsOf(formatsOf(replaced))).toEqual({ thumbnail: [234, 156], small: [500, 333] });
    expect(formatsOf(replaced).thumbnail).toMatchObject({ name: 'thumbnail_smaller.png', hash: `thumbnail_${file.hash}`, url: formatsOf(file).thumbnail.url });
    expect(storedFiles(server).filter((name) => name.includes(file.hash))).toEqual(namesOf(replaced).sort());
    expect(await served(formatsOf(replaced).thumbnail.url)).toMatchObject({ status: 200, width: 234, height: 156 });
    expect(await served(formatsOf(file).large.url)).toEqual({ status: 404 });
  });

  test('replacing an image with a text file leaves formats null and no format file', async () => {
    const [file] = await uploaded(server, [image('to-text.png', 600, 400)]);
    const response = await request<FileRecord>(server, `/api/upload?id=${file.id}`, { method: 'POST', body: formOf([{ name: 'notes.txt', content: 'now text', type: 'text/plain' }]), headers: server.asAdmin });
    expect(response.body).toMatchObject({ formats: null, mime: 'text/plain' });
    expect(storedFiles(server).filter((name) => name.includes(file.hash))).toEqual([`${file.hash}.png`]);
  });
});

describe('upload.config.breakpoints', () => {
  let custom: TestServer;
  beforeAll(async () => {
    custom = await startUploadServer({ breakpoints: { xlarge: 1100, tiny: 100 } });
  });
  afterAll(() => custom.stop());

  test('replaces Strapi\'s set: the thumbnail and the configured breakpoints the image exceeds', async () => {
    const [file] = await uploaded(custom, [image('custom.png', 1200, 900)]);
    expect(dimensionsOf(formatsOf(file))).toEqual({ thumbnail: [208, 156], xlarge: [1100, 825], tiny: [100, 75] });
    expect(formatsOf(file).xlarge).toMatchObject({ name: 'xlarge_custom.png', url: `/uploads/xlarge_${file.hash}.png` });
    expect(storedFiles(custom).filter((name) => name.includes(file.hash))).toEqual(namesOf(file).sort());
  });
});
