import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModels } from '../../src/models/load-models';
import { loadExtensions } from '../../src/extensions/load-extensions';
import { EXAMPLE_SCHEMA } from '../support/test-server';

/** An extension mistake stops start-up naming the file (and the line), instead of being ignored. */

const models = loadModels(EXAMPLE_SCHEMA);
let schemaDir: string;
beforeEach(() => {
  schemaDir = mkdtempSync(join(tmpdir(), 'folio-extensions-'));
  mkdirSync(join(schemaDir, 'extensions'));
});
afterEach(() => rmSync(schemaDir, { recursive: true, force: true }));

const withFile = (name: string, content: string) => {
  writeFileSync(join(schemaDir, 'extensions', name), content);
  return join(schemaDir, 'extensions', name);
};
const messageOf = (): string => {
  try {
    loadExtensions(schemaDir, models);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

test('SDL that does not parse: file, line and column', () => {
  const path = withFile('broken.graphql', 'type Query {\n  ok: String\n  oops(: Int\n}\n');
  expect(messageOf()).toBe(`${path}:3:8: Syntax Error: Expected Name, found ":".`);
});

test('a module that does not load: file and line', () => {
  const path = withFile('broken.js', 'module.exports = {\n  typeDefs: `type Query { a: String }`,\n  resolvers: { Query: { a: () => "a" } \n};\n)');
  expect(messageOf()).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: `));
});

test('a misspelled export names the one meant', () => {
  const path = withFile('typo.js', 'module.exports = { typedefs: "type Query { a: String }" };');
  expect(messageOf()).toBe(`${path}: typedefs is not a known export (did you mean typeDefs?)`);
  rmSync(path);
  withFile('factory.js', 'module.exports = () => ({ resolver: {} });');
  expect(messageOf()).toMatch(/factory\.js: resolver is not a known export \(did you mean resolvers\?\)/);
});

test("every export's value is checked: each wrong one is named with its path in the module", () => {
  const path = withFile(
    'values.js',
    `module.exports = {
      shadowCRUD: { 'api::tag.tag': { disableAction: ['create'], fields: { name: { output: 'no' } } } },
      policies: { isOwner: 'is-owner' },
      resolversConfig: { 'Query.tags': { policies: [{ nmae: 'isOwner' }], auth: true } },
    };`,
  );
  expect(messageOf().split('\n')).toEqual([
    `${path}: shadowCRUD.api::tag.tag.disableAction is not a known option (did you mean disableActions?)`,
    `${path}: shadowCRUD.api::tag.tag.fields.name.output must be a boolean, got "no"`,
    `${path}: policies.isOwner must be a function, got "is-owner"`,
    `${path}: resolversConfig.Query.tags.policies[0].nmae is not a known option (did you mean name?)`,
    `${path}: resolversConfig.Query.tags.policies[0].name is required`,
    `${path}: resolversConfig.Query.tags.auth must be false, or { scope: [permissions] }, got true`,
  ]);
});

test('a file Folio cannot load (.ts, .mjs) is named, not skipped', () => {
  const path = withFile('custom.ts', 'export default {};');
  expect(messageOf()).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: extensions are \\.graphql SDL or CommonJS \\.js modules`));
});

test('good files load; notes and hidden files beside them are left alone', () => {
  withFile('a.graphql', 'type Query { hello: String }');
  withFile('b.js', 'module.exports = ({ models }) => ({ resolvers: { Query: { hello: () => String(models.contentTypes.size) } } });');
  withFile('README.md', '# notes');
  // every project Strapi generates has one
  withFile('.gitkeep', '');
  const loaded = loadExtensions(schemaDir, models);
  expect(loaded).toHaveLength(2);
  expect(loaded[0].typeDefs).toContain('hello');
});
