'use strict';
/**
 * An earlier Folio to measure against in the same run (`BENCH_BASELINE=<git ref>`): the ref is
 * checked out into a temporary worktree sharing this checkout's node_modules, and built there.
 */
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } = require('node:fs');
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

/** the newest modification time under `dir` of the files whose name ends with `suffix` */
const newest = (dir, suffix) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .reduce((latest, entry) => Math.max(latest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs), 0);

/**
 * Fails when this checkout's build is older than its source: `node bench/run.js` does not build (`npm run bench`
 * does), and a measured `dist/` a build behind its tree once passed for the commit it was not.
 */
const assertBuilt = () => {
  const built = newest(join(ROOT, 'dist/src'), '.js');
  if (newest(join(ROOT, 'src'), '.ts') > built) throw new Error('dist/ is older than src/: run `npm run build` (or `npm run bench`, which builds first)');
};

module.exports = { buildBaseline, assertBuilt };
