import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildClientSchema, buildSchema, getIntrospectionQuery, printSchema, type GraphQLDirective, type IntrospectionQuery } from 'graphql';
import { startFolio, type StartedFolio } from '../../src/app/start-folio';
import { EXAMPLE_SCHEMA } from '../support/test-server';

/**
 * `folio sdl` prints the schema `/graphql` serves: the same types, fields, arguments and directives,
 * nothing more; `folio check` runs every start-up check without starting.
 */

const run = promisify(execFile);
const REPO = resolve(__dirname, '..', '..');
const CONFIG = join(REPO, 'config');
const folio = (args: string[]) =>
  run(process.execPath, ['-r', require.resolve('../support/register-ts.js'), require.resolve('../../src/cli/run.ts'), ...args], { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'test' } });

let root: string;
let server: StartedFolio;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-sdl-test-'));
  server = await startFolio({ schemaDir: EXAMPLE_SCHEMA, configDir: CONFIG, dataDir: join(root, 'data'), host: '127.0.0.1', port: 0, env: { NODE_ENV: 'test' } });
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** `folio sdl` of the example project: one process for the two tests that read what it prints */
let exampleSdl: Promise<string> | undefined;
const printExampleSdl = () => (exampleSdl ??= folio(['sdl', '--schema', EXAMPLE_SCHEMA, '--config', CONFIG]).then(({ stdout }) => stdout));

test('the printed SDL is the introspected schema of the running server', async () => {
  const stdout = await printExampleSdl();
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: getIntrospectionQuery({ directiveIsRepeatable: true, specifiedByUrl: true, inputValueDeprecation: true }) }),
  });
  const served = buildClientSchema(((await response.json()) as { data: IntrospectionQuery }).data);
  expect(printSchema(buildSchema(stdout))).toBe(printSchema(served));
  // what the modules add is there, what Shadow CRUD switched off is not
  for (const field of ['me: UsersPermissionsMe', 'login(', 'register(', 'uploadFiles_connection(', 'usersPermissionsUsers_connection(']) expect(stdout).toContain(field);
  expect(stdout).not.toContain('usersPermissionsPermissions');
  expect(stdout).not.toContain('createUsersPermissionsPermission');
  // the users-permissions module's own, in place of the Shadow CRUD mutations it switched off
  expect(stdout).toContain('createUsersPermissionsRole(data: UsersPermissionsRoleInput!): UsersPermissionsCreateRolePayload');
  expect(stdout).toContain('createUsersPermissionsUser(data: UsersPermissionsUserInput!): UsersPermissionsUserEntityResponse!');
  expect(stdout).toMatch(/@auth\(scope: \["api::article\.article\.find"\]\)/);
});

test('the directives are printed as directives/ at the top writes them: each definition with its descriptions', async () => {
  const stdout = await printExampleSdl();
  const printed = buildSchema(stdout);
  const described = (directive: GraphQLDirective | null | undefined) =>
    directive && { description: directive.description, args: directive.args.map((arg) => [arg.name, arg.description]), locations: directive.locations, isRepeatable: directive.isRepeatable };
  for (const name of ['auth', 'policy', 'disabled']) {
    const written = buildSchema(`scalar JSON\n${readFileSync(join(REPO, 'directives', `${name}.graphql`), 'utf8')}`).getDirective(name);
    expect(written?.description).toMatch(/Example: /);
    expect(described(printed.getDirective(name))).toEqual(described(written));
  }
});

test('a broken .graphql extension: exit 1, naming the file and the line', async () => {
  const schemaDir = join(root, 'broken-schema');
  cpSync(EXAMPLE_SCHEMA, schemaDir, { recursive: true });
  mkdirSync(join(schemaDir, 'extensions'), { recursive: true });
  writeFileSync(join(schemaDir, 'extensions', 'broken.graphql'), 'type Query {\n  hello: String\n  oops(: Int\n}\n');
  const failed = await folio(['sdl', '--schema', schemaDir, '--config', CONFIG]).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stderr).toMatch(/broken\.graphql/);
  expect(failed?.stderr).toMatch(/:3\b|line 3/);
});

test('a --config folder that does not exist is an error, not a run on every default', async () => {
  const failed = await folio(['sdl', '--schema', EXAMPLE_SCHEMA, '--config', join(root, 'nonexistent')]).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stderr.trim()).toBe(`--config ${join(root, 'nonexistent')}: no such folder`);
});

test('folio check: exit 0 on a sound project, exit 1 naming the mistake', async () => {
  const sound = await folio(['check', '--schema', EXAMPLE_SCHEMA, '--config', CONFIG]);
  expect(sound.stdout).toMatch(/no problem found \(\d+ queries served\)/);
  const configDir = join(root, 'typo-config');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(join(configDir, 'plugins.json'), JSON.stringify({ 'users-permissions': { config: { roles: { public: { permissions: ['api::tag.tag.fnd'] } } } } }));
  const failed = await folio(['check', '--schema', EXAMPLE_SCHEMA, '--config', configDir]).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stderr).toContain('users-permissions.config.roles.public.permissions[0] "api::tag.tag.fnd" is not a permission anything here requires (did you mean "api::tag.tag.find"?)');
});

test('folio check prints its verdict on every run of a project whose start-up leaves the reader thread checkpointing', async () => {
  // foodadvisor's tables and indexes fill the WAL past the checkpoint threshold: the store closed while the
  // reader thread was at it, and the process once exited before the close settled, printing nothing
  const foodadvisor = join(REPO, 'test', 'fixtures', 'foodadvisor');
  const configDir = join(root, 'empty-config');
  mkdirSync(configDir, { recursive: true });
  for (let run = 0; run < 3; run++) {
    const { stdout } = await folio(['check', '--schema', foodadvisor, '--config', configDir]);
    expect(stdout).toMatch(/no problem found \(\d+ queries served\)/);
  }
});

test('folio check: project code Folio cannot serve (a custom service) is exit 1, naming the file; the fixture project code passes', async () => {
  const schemaDir = join(root, 'project-code');
  cpSync(EXAMPLE_SCHEMA, schemaDir, { recursive: true });
  cpSync(join(__dirname, '..', 'fixtures', 'project-code'), schemaDir, { recursive: true });
  expect((await folio(['check', '--schema', schemaDir, '--config', CONFIG])).stdout).toMatch(/no problem found/);
  const service = join(schemaDir, 'api', 'tag', 'services', 'tag.js');
  mkdirSync(join(schemaDir, 'api', 'tag', 'services'), { recursive: true });
  writeFileSync(service, "const { factories } = require('@strapi/strapi');\nmodule.exports = factories.createCoreService('api::tag.tag', () => ({ async popular() { return []; } }));\n");
  const failed = await folio(['check', '--schema', schemaDir, '--config', CONFIG]).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stderr).toContain(`${service}: the service customizes api::tag.tag (a second argument to createCoreService): custom services are not served by Folio`);
});
