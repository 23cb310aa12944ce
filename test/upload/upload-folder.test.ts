import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUploadFolder } from '../../src/media/upload-folder';

/**
 * A file being received exists as soon as its stream does: an upload that fails at once removes it, and no
 * open still waiting on libuv's pool can create it after that removal.
 */

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'folio-upload-folder-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

test('createWriteStream has created the file when it returns, and a failure at once leaves nothing behind', async () => {
  const folder = createUploadFolder(root);
  const stream = folder.createWriteStream('abc123.part');
  expect(existsSync(join(root, 'abc123.part'))).toBe(true);
  stream.on('error', () => undefined);
  stream.destroy(new Error('refused'));
  await folder.remove('abc123.part');
  if (!stream.closed) await new Promise<void>((resolve) => stream.once('close', () => resolve()));
  expect(await folder.list()).toEqual([]);
});

test('a stored name that exists is refused', () => {
  const folder = createUploadFolder(root);
  folder.createWriteStream('abc123.part').destroy();
  expect(() => folder.createWriteStream('abc123.part')).toThrow(/EEXIST/);
});
