import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer } from '../support/test-server';
import { png } from '../upload/images';
import { request, uploadTestConfig, uploaded } from '../upload/upload-server';

/**
 * Files a crash leaves behind (a `.part` being written, a file whose record was never inserted, formats
 * made for it) are removed at start; the files and format files that records name are kept.
 */

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'folio-sweep-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const start = () => startTestServer({ config: uploadTestConfig(), dataDir });

test('a restart removes the files no record names and keeps the others', async () => {
  const first = await start();
  // Big enough for a thumbnail, too small for any breakpoint.
  const [kept] = await uploaded(first, [{ name: 'kept.png', content: png(300, 200), type: 'image/png' }]);
  const thumbnail = (kept.formats as Record<string, { url: string }>).thumbnail;
  await first.stop();
  const uploads = join(dataDir, 'uploads');
  writeFileSync(join(uploads, 'interrupted_a1b2c3.part'), 'half a file');
  writeFileSync(join(uploads, 'orphan_d4e5f6.png'), png(2, 2));
  writeFileSync(join(uploads, 'thumbnail_orphan_d4e5f6.png'), png(2, 2));
  // Named like a format of the kept file, but not one its record lists.
  writeFileSync(join(uploads, `small_${kept.hash}.png`), png(2, 2));

  const second = await start();
  try {
    expect(readdirSync(uploads).sort()).toEqual([`${kept.hash}${kept.ext}`, `thumbnail_${kept.hash}${kept.ext}`].sort());
    expect(thumbnail.url).toBe(`/uploads/thumbnail_${kept.hash}${kept.ext}`);
    for (const url of [kept.url, thumbnail.url]) expect((await fetch(`${second.url}${url}`)).status).toBe(200);
    expect((await request(second, `/api/upload/files/${kept.id}`, { headers: second.asAdmin })).body).toMatchObject({ hash: kept.hash });
  } finally {
    await second.stop();
  }
});
