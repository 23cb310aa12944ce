import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A project's TypeScript files compile with Folio's `typescript`, or, where Folio has none (a production
 * install without dev dependencies), with the project's own. The loader's source is copied where no
 * `typescript` can be found from it, and run in a child process.
 */

const run = promisify(execFile);
const SRC = join(__dirname, '..', '..', 'src');
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'folio-project-ts-'));
  mkdirSync(join(root, 'folio', 'project'), { recursive: true });
  cpSync(join(SRC, 'project', 'project-module-loader.ts'), join(root, 'folio', 'project', 'project-module-loader.ts'));
  mkdirSync(join(root, 'app', 'src'), { recursive: true });
  writeFileSync(join(root, 'app', 'src', 'thing.ts'), 'const answer: number = 42;\nexport default { answer };\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const load = async () => {
  const script = `const { createProjectModuleLoader } = require(${JSON.stringify(join(root, 'folio', 'project', 'project-module-loader.ts'))});
  try { process.stdout.write(JSON.stringify(createProjectModuleLoader({}, () => new Map()).load(${JSON.stringify(join(root, 'app', 'src', 'thing.ts'))}))); }
  catch (error) { process.stdout.write(error.message); }`;
  return (await run(process.execPath, ['-r', require.resolve('../support/register-ts.js'), '-e', script], { encoding: 'utf8' })).stdout;
};

test("without Folio's typescript, a TypeScript file loads with the project's, and stops start-up naming the file without either", async () => {
  expect(await load()).toMatch(/thing\.ts: TypeScript and ES module files need the "typescript" package/);
  mkdirSync(join(root, 'app', 'node_modules'));
  symlinkSync(dirname(require.resolve('typescript/package.json')), join(root, 'app', 'node_modules', 'typescript'));
  expect(JSON.parse(await load())).toEqual({ default: { answer: 42 } });
});
