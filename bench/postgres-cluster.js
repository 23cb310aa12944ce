'use strict';
/**
 * A throwaway PostgreSQL cluster for the peer benchmark: initdb into a temporary folder, pg_ctl start
 * listening on a unix socket in that folder only (no TCP), and stop and removal at the end. Uses the
 * machine's PostgreSQL (initdb, pg_ctl and psql on PATH or under /usr/lib/postgresql/<version>/bin);
 * `findPostgres()` says why not when there is none. PostgreSQL refuses to run as root: as root, the
 * server runs as the `postgres` user, which then owns the folder.
 */
const { execFileSync } = require('node:child_process');
const { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const PROGRAMS = ['initdb', 'pg_ctl', 'psql'];

const onPath = (program) => {
  try {
    return execFileSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
};

/** `{ programs: { initdb, pg_ctl, psql } }`, or `{ missing: '<why>' }` when this machine has no PostgreSQL. */
const findPostgres = () => {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  const programs = {};
  for (const program of PROGRAMS) {
    programs[program] = onPath(program) ?? versions.map((version) => join('/usr/lib/postgresql', version, 'bin', program)).find((path) => existsSync(path));
  }
  const absent = PROGRAMS.filter((program) => !programs[program]);
  if (absent.length > 0) return { missing: `no PostgreSQL on this machine (${absent.join(', ')} not found on PATH or under /usr/lib/postgresql/*/bin)` };
  if (process.getuid?.() === 0) {
    let line = '';
    try {
      line = execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).trim();
    } catch {
      // getent answers 2 for an unknown user
    }
    if (!line) return { missing: 'running as root and there is no `postgres` user to run PostgreSQL as (it refuses root)' };
    const [, , uid, gid] = line.split(':');
    return { programs, runAs: { name: 'postgres', uid: Number(uid), gid: Number(gid) } };
  }
  return { programs };
};

/**
 * Starts a cluster (`found` from findPostgres): `{ dir, port, url, psql(sql, input?), stop() }`, `url` a
 * connection string over its socket for the `postgres` superuser and database.
 */
const startCluster = (found) => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-peer-pg-'));
  const { runAs } = found;
  if (runAs) chownSync(dir, runAs.uid, runAs.gid);
  const run = (program, args) => {
    const [command, commandArgs] = runAs ? ['runuser', ['-u', runAs.name, '--', found.programs[program], ...args]] : [found.programs[program], args];
    return execFileSync(command, commandArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const data = join(dir, 'data');
  const port = 40000 + Math.floor(Math.random() * 20000);
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=''`, 'start']);
  const psql = (sql, input) =>
    execFileSync(found.programs.psql, ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-q', '-t', '-A', '-c', sql], {
      encoding: 'utf8',
      input,
      maxBuffer: 64 * 1024 * 1024,
    });
  return {
    dir,
    port,
    url: `postgres://postgres@/postgres?host=${encodeURIComponent(dir)}&port=${port}`,
    psql,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
};

module.exports = { findPostgres, startCluster };
