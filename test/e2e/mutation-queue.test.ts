import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_SCHEMA, defaultPlugins, startTestServer, type TestServer } from '../support/test-server';

/**
 * `graphql.config.maxConcurrentMutations`: how many mutations execute at once, seen from their resolvers
 * (an extension's, each taking 50 ms and counting how many run beside it), against a real server.
 */

let schemaDir: string;
const servers: TestServer[] = [];

beforeAll(() => {
  schemaDir = mkdtempSync(join(tmpdir(), 'folio-mutation-queue-'));
  cpSync(EXAMPLE_SCHEMA, schemaDir, { recursive: true });
  mkdirSync(join(schemaDir, 'extensions'), { recursive: true });
  writeFileSync(
    join(schemaDir, 'extensions', 'slow.graphql'),
    `type Peaks { mutations: Int!, queries: Int! }
     extend type Query { slowRead: Int, peaks: Peaks }
     extend type Mutation { slowWrite(fail: Boolean): Int }`,
  );
  // each server loads the module anew: its counts are its own
  writeFileSync(
    join(schemaDir, 'extensions', 'slow.js'),
    `module.exports = () => {
      const now = { mutations: 0, queries: 0 };
      const peaks = { mutations: 0, queries: 0 };
      const slow = (kind) => async (_parent, args) => {
        now[kind] += 1;
        peaks[kind] = Math.max(peaks[kind], now[kind]);
        await new Promise((resolve) => setTimeout(resolve, 50));
        now[kind] -= 1;
        if (args.fail) throw new Error('failed on purpose');
        return 1;
      };
      return { resolvers: { Query: { slowRead: slow('queries'), peaks: () => ({ ...peaks }) }, Mutation: { slowWrite: slow('mutations') } } };
    };`,
  );
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  rmSync(schemaDir, { recursive: true, force: true });
});

const start = async (maxConcurrentMutations?: number | false): Promise<TestServer> => {
  const graphql = maxConcurrentMutations === undefined ? {} : { graphql: { config: { maxConcurrentMutations } } };
  const server = await startTestServer({ schemaDir, config: { plugins: defaultPlugins(graphql) } });
  servers.push(server);
  return server;
};

/** 8 mutations and 8 queries sent at once; each answers 1 unless `fail` */
const burst = async (server: TestServer, fail = false) => {
  const sends = [
    ...Array.from({ length: 8 }, () => server.gql<{ slowWrite: number }>(`mutation { slowWrite(fail: ${fail}) }`, undefined, server.asAdmin)),
    ...Array.from({ length: 8 }, () => server.gql<{ slowRead: number }>('{ slowRead }', undefined, server.asAdmin)),
  ];
  return Promise.all(sends);
};

const peaks = async (server: TestServer) => (await server.gql<{ peaks: { mutations: number; queries: number } }>('{ peaks { mutations queries } }', undefined, server.asAdmin)).body.data?.peaks;

test('by default four mutations run at once and the others wait; queries are not held', async () => {
  const server = await start();
  const answers = await burst(server);
  expect(answers.map((answer) => answer.body.errors ?? answer.body.data)).toEqual([...Array(8).fill({ slowWrite: 1 }), ...Array(8).fill({ slowRead: 1 })]);
  expect(await peaks(server)).toEqual({ mutations: 4, queries: 8 });
});

test('the limit is the configured one, and `false` lifts it', async () => {
  const two = await start(2);
  await burst(two);
  expect(await peaks(two)).toEqual({ mutations: 2, queries: 8 });
  const unlimited = await start(false);
  await burst(unlimited);
  expect(await peaks(unlimited)).toEqual({ mutations: 8, queries: 8 });
});

test('a mutation that fails gives its place up: the ones after it run, and it answers its error (masked, as any error thrown)', async () => {
  const one = await start(1);
  const failed = await burst(one, true);
  expect(failed.slice(0, 8).map((answer) => [answer.body.data, answer.body.errors?.map((error) => error.message)])).toEqual(Array(8).fill([{ slowWrite: null }, ['Unexpected error.']]));
  const after = await one.gql<{ slowWrite: number }>('mutation { slowWrite }', undefined, one.asAdmin);
  expect(after.body).toEqual({ data: { slowWrite: 1 } });
  expect(await peaks(one)).toEqual({ mutations: 1, queries: 8 });
});

test('a value that is not a positive whole number or false is refused at start, naming the option', async () => {
  await expect(start(0)).rejects.toThrow(/maxConcurrentMutations/);
});
