import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer } from '../support/test-server';
import { png } from '../upload/images';
import { request, uploadTestConfig, uploaded } from '../upload/upload-server';

/** Files a crash leaves behind (a `.part` being written, a file whose record was never inserted) are removed at start. */

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'folio-sweep-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const start = () => startTestServer({ config: uploadTestConfig(), dataDir });

test('a restart removes the files no record names and keeps the others', async () => {
  const first = await start();
  const [kept] = await uploaded(first, [{ name: 'kept.png', content: png(3, 3), type: 'image/png' }]);
  await first.stop();
  const uploads = join(dataDir, 'uploads');
  writeFileSync(join(uploads, 'interrupted_a1b2c3.part'), 'half a file');
  writeFileSync(join(uploads, 'orphan_d4e5f6.png'), png(2, 2));

  const second = await start();
  try {
    expect(readdirSync(uploads)).toEqual([`${kept.hash}${kept.ext}`]);
    const served = await fetch(`${second.url}${kept.url}`);
    expect(served.status).toBe(200);
    expect((await request(second, `/api/upload/files/${kept.id}`, { headers: second.asAdmin })).body).toMatchObject({ hash: kept.hash });
  } finally {
    await second.stop();
  }
});
