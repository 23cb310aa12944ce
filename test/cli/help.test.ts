import { spawnSync } from 'node:child_process';

/** `folio --help`, `folio help COMMAND`, `folio COMMAND --help`: the usage on stdout with exit 0, nothing run. */

const folio = (...argv: string[]) =>
  spawnSync(process.execPath, ['-r', require.resolve('../support/register-ts.js'), require.resolve('../../src/cli/run.ts'), ...argv], { encoding: 'utf8' });

test.each([['folio --help', ['--help']], ['folio -h', ['-h']], ['folio help', ['help']], ['folio', []]])('%s prints every command', (_, argv) => {
  const answer = folio(...argv);
  expect(answer.status).toBe(0);
  for (const command of ['start', 'sdl', 'export', 'import', 'token create', 'webhook retry']) expect(answer.stdout).toContain(`folio ${command}`);
});

test.each([
  [['token', '--help'], 'folio token create', 'folio start'],
  [['start', '-h'], 'folio start [--schema DIR]', 'folio token'],
  [['help', 'webhook'], 'folio webhook failed', 'folio sdl'],
  [['webhook', 'add', '--help'], 'folio webhook add --name NAME', 'folio import'],
])('folio %j prints that command only', (argv, shown, hidden) => {
  const answer = folio(...argv);
  expect(answer.status).toBe(0);
  expect(answer.stdout).toContain(shown);
  expect(answer.stdout).not.toContain(hidden);
});

test('an unknown command still fails, with the usage', () => {
  const answer = folio('nope');
  expect(answer.status).toBe(1);
  expect(answer.stderr).toMatch(/^Unknown command "nope"\nUsage:/);
});
