import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestServer } from '../support/test-server';
import { uploaded } from '../upload/upload-server';

/** export/import carry file records, not files: each says so, naming the folder to copy, instead of leaving broken images to tell. */

const run = promisify(execFile);
const folio = (args: string[]) => run(process.execPath, ['-r', require.resolve('../support/register-ts.js'), require.resolve('../../src/cli/run.ts'), ...args], { encoding: 'utf8' });

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'folio-transfer-files-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('an export with uploaded files names the folder to copy; an import counts the records whose files are missing', async () => {
  const oldData = join(root, 'old');
  const server = await startTestServer({ dataDir: oldData, config: { database: { client: 'embedded' } } });
  await uploaded(server, [{ name: 'note.txt', content: 'hello', type: 'text/plain' }]);
  await server.stop();
  const configDir = join(root, 'config');
  mkdirSync(configDir);
  const file = join(root, 'data.ndjson');
  const exported = await folio(['export', '--config', configDir, '--data', oldData, '--file', file]);
  expect(exported.stderr).toContain(`note: the 1 uploaded file(s) are not in the export, only their records: copy ${join(oldData, 'uploads')}`);
  const imported = await folio(['import', '--config', configDir, '--data', join(root, 'new'), '--file', file]);
  expect(imported.stderr).toContain(`note: 1 of 1 file record(s) name files missing from ${join(root, 'new', 'uploads')}`);
});
