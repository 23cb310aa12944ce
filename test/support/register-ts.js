'use strict';
/**
 * Lets a child process require the TypeScript sources without a build step:
 *   node -r ./test/support/register-ts.js script.js
 * Compiles each required .ts file with @swc/core (type-stripping only, no type checking), as jest does.
 *
 * What it compiled is kept in the temporary folder, named by the hash of the compiler's version, its options,
 * the file's path and its text: the test suite starts the CLI dozens of times, each loading some 350 source
 * files, and compiles each of them once (a changed file is a new name, so nothing stale is read).
 */
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const OPTIONS = { sourceMaps: 'inline', module: { type: 'commonjs' }, jsc: { target: 'es2022', parser: { syntax: 'typescript' } } };
const CACHE = join(tmpdir(), `folio-register-ts-${process.getuid?.() ?? 'user'}`);
const SALT = `${require('@swc/core/package.json').version}\0${JSON.stringify(OPTIONS)}`;
let swc;

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const source = readFileSync(filename, 'utf8');
  const cached = join(CACHE, `${createHash('sha1').update(SALT).update(`\0${filename}\0`).update(source).digest('hex')}.js`);
  let code;
  try {
    code = readFileSync(cached, 'utf8');
  } catch {
    swc ??= require('@swc/core');
    code = swc.transformSync(source, { filename, ...OPTIONS }).code;
    try {
      // written whole under a name of its own, then renamed: a process reading it at the same time sees all or nothing
      mkdirSync(CACHE, { recursive: true });
      const partial = `${cached}.${process.pid}`;
      writeFileSync(partial, code);
      renameSync(partial, cached);
    } catch {
      // a cache that cannot be written: compiled again next time
    }
  }
  module._compile(code, filename);
};
