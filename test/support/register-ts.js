'use strict';
/**
 * Lets a child process require the TypeScript sources without a build step:
 *   node -r ./test/support/register-ts.js script.js
 * Compiles each required .ts file with @swc/core (type-stripping only, no type checking), as jest does.
 */
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    sourceMaps: 'inline',
    module: { type: 'commonjs' },
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
  });
  module._compile(code, filename);
};
