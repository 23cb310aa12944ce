import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, writeConfigFiles, type ServerProcess } from '../support/server-process';
import { uploadTestConfig, UPLOAD_ONLY_TOKEN } from '../upload/upload-server';

/**
 * Multipart forms cut off before their closing boundary, where busboy's "Unexpected end of form"
 * reaches a part Folio skips (not named `files`, or after a refused `ref` field). The server runs
 * in its own process: an unhandled stream error there ends it, as it would in production.
 */

const BOUNDARY = 'folio-boundary';
const part = (name: string, body: string, fileName?: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${fileName ? `; filename="${fileName}"` : ''}\r\n` +
  `${fileName ? 'Content-Type: text/plain\r\n' : ''}\r\n${body}`;

const truncatedForms: Record<string, string> = {
  'a file part not named files': part('other', 'hello, this part never ends', 'a.txt'),
  'a file part after a ref field': `${part('ref', 'api::article.article')}\r\n${part('files', 'never ends', 'b.txt')}`,
  'a skipped part before a files part': `${part('other', 'x', 'a.txt')}\r\n${part('files', 'never ends either', 'c.txt')}`,
};

let server: ServerProcess;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-upload-malformed-'));
  const configDir = join(root, 'config');
  mkdirSync(configDir);
  writeConfigFiles(configDir, uploadTestConfig());
  server = await startServerProcess({ configDir, dataDir: join(root, 'data') });
});

afterAll(async () => {
  await server.stop();
  rmSync(root, { recursive: true, force: true });
});

test.each(Object.entries(truncatedForms))('%s, without its closing boundary: 400, and the server lives on', async (_, body) => {
  const response = await fetch(`${server.url}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${UPLOAD_ONLY_TOKEN}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  });
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
  const health = await fetch(`${server.url}/_health`);
  expect(health.status).toBe(200);
  expect(server.exited()).toBeUndefined();
  expect(server.stderr()).not.toMatch(/Unexpected end of form/);
});
