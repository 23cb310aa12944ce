import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createImageFormatter } from '../../src/media/image-formats';
import { createLocalProvider, type UploadProvider } from '../../src/media/upload-provider';
import { png } from './images';

/** A format that cannot be made costs only that format: the others are kept and one line says what is missing. */

let dataDir: string;
let provider: UploadProvider;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'folio-formats-'));
  provider = createLocalProvider(dataDir, 'uploads');
  await provider.start();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const BREAKPOINTS = { large: 1000, medium: 750, small: 500 };

test('a format whose file cannot be written is left out; the others are made and one line is logged', async () => {
  const source = { name: 'photo.png', hash: 'photo_0123456789', ext: '.png', mime: 'image/png' };
  writeFileSync(join(provider.workspace.directory, 'photo_0123456789.png'), png(1200, 900));
  // `medium` is written into a folder that does not exist.
  const workspace = { ...provider.workspace, pathOf: (name: string) => (name.startsWith('medium_') ? join(dataDir, 'missing', name) : provider.workspace.pathOf(name)) };
  const failing: UploadProvider = { ...provider, workspace };
  const lines: string[] = [];
  const formats = await createImageFormatter(failing, BREAKPOINTS, (line) => lines.push(line)).generate(source);

  expect(Object.keys(formats ?? {})).toEqual(['thumbnail', 'large', 'small']);
  expect(lines).toEqual([expect.stringMatching(/^upload: photo\.png is stored without its medium format\(s\): .+/)]);
  expect(readdirSync(provider.workspace.directory).sort()).toEqual(['large_photo_0123456789.png', 'photo_0123456789.png', 'small_photo_0123456789.png', 'thumbnail_photo_0123456789.png']);
});

test('a file sharp cannot read gets no formats and one line', async () => {
  const source = { name: 'fake.gif', hash: 'fake_0123456789', ext: '.gif', mime: 'image/gif' };
  writeFileSync(join(provider.workspace.directory, 'fake_0123456789.gif'), 'GIF89a and nothing a decoder wants');
  const lines: string[] = [];
  expect(await createImageFormatter(provider, BREAKPOINTS, (line) => lines.push(line)).generate(source)).toBeNull();
  expect(lines).toEqual([expect.stringMatching(/^upload: no formats for fake\.gif: .+/)]);
});

test('types sharp does not resize are not handed to it', async () => {
  const lines: string[] = [];
  const formatter = createImageFormatter(provider, BREAKPOINTS, (line) => lines.push(line));
  // No such file: reading it would log a line.
  expect(await formatter.generate({ name: 'logo.svg', hash: 'logo_0123456789', ext: '.svg', mime: 'image/svg+xml' })).toBeNull();
  expect(lines).toEqual([]);
});
