'use strict';
/**
 * An earlier Folio to measure against in the same run (`BENCH_BASELINE=<git ref>`): the ref is
 * checked out into a temporary worktree sharing this checkout's node_modules, and built there.
 */
const { execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync, symlinkSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');

const buildBaseline = (ref) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'folio-baseline-')), 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { cwd: ROOT, stdio: 'ignore' });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
  return {
    bin: join(dir, 'bin/folio.js'),
    remove: () => {
      execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, stdio: 'ignore' });
      rmSync(join(dir, '..'), { recursive: true, force: true });
    },
  };
};

module.exports = { buildBaseline };
