import { makeExecutableSchema } from '@graphql-tools/schema';
import { mergeTypeDefs } from '@graphql-tools/merge';
import { pruneSchema } from '@graphql-tools/utils';
import { buildASTSchema, execute, lexicographicSortSchema, parse, printSchema, type GraphQLObjectType } from 'graphql';
import { applyFieldAuth, authOf, DIRECTIVE_SDL, policyDirectiveTransformer, resolversLeft, withoutDisabled, type FieldAuth, type Policy } from '../../src/directives/index';
import { findForbidden } from '../../src/graphql/plugins/use-authorization';
import { createRolePrincipal } from '../../src/auth/principal';

const base = `
${DIRECTIVE_SDL}
scalar JSON
scalar Unused
type Item { id: ID! secret: String @disabled owner: Owner }
type Owner @disabled { name: String }
type Box { owner: Owner }
input ItemFilter { name: String size: Int @disabled }
input Emptied { size: Int @disabled }
interface Named { name: String }
type Person implements Named { name: String }
type Orphan { name: String }
union Found = Item | Owner
type Query {
  items(filter: ItemFilter, legacy: Boolean @disabled, emptied: Emptied): [Item] @auth(scope: ["api::item.item.find"])
  item: Item @auth(scope: ["api::item.item.findOne"])
  open: String
  guarded(value: String): String @policy(name: "isNotBob") @policy(name: "hasConfig", config: { level: 2 })
  gone: String @disabled
  box: Box
  named: Named
  found: Found
}
type Mutation { onlyDisabled: String @disabled }
`;

const schemaOf = () =>
  makeExecutableSchema({
    typeDefs: base,
    resolvers: { Query: { open: () => 'open', guarded: (_: unknown, args: { value: string }) => args.value } },
  });

describe('@disabled', () => {
  const { document, removed } = withoutDisabled(mergeTypeDefs([base]));
  const schema = buildASTSchema(document);
  const printed = printSchema(schema);

  test('removes marked types, fields, input fields and arguments', () => {
    expect(schema.getType('Owner')).toBeUndefined();
    const item = schema.getType('Item') as GraphQLObjectType;
    expect(Object.keys(item.getFields())).toEqual(['id']);
    expect(printed).not.toMatch(/size: Int/);
    expect(printed).not.toMatch(/legacy/);
    expect(printed).not.toMatch(/gone/);
  });

  test('with what points at a removed type, and what that leaves empty', () => {
    // Box held only a field of the removed Owner, Emptied only a removed input field
    expect(schema.getType('Box')).toBeUndefined();
    expect(schema.getType('Emptied')).toBeUndefined();
    expect(Object.keys(schema.getQueryType()!.getFields())).not.toContain('box');
    expect(schema.getQueryType()!.getFields().items.args.map((arg) => arg.name)).toEqual(['filter']);
    expect(printed).toMatch(/union Found = Item\n/);
  });

  test('drops a root type left empty', () => {
    expect(schema.getMutationType()).toBeUndefined();
  });

  test('leaves out what nothing reaches, as pruneSchema does, and keeps what it keeps', () => {
    expect(schema.getType('Unused')).toBeUndefined();
    expect(schema.getType('Orphan')).toBeUndefined();
    // an interface some field returns keeps its implementations
    expect(schema.getType('Person')).toBeDefined();
    const sorted = (built: typeof schema) => printSchema(lexicographicSortSchema(built));
    expect(sorted(pruneSchema(schema))).toBe(sorted(schema));
  });

  test('names what it removed, so that its resolvers are left out and the others kept', () => {
    expect([...removed.types].sort()).toEqual(['Box', 'Emptied', 'Mutation', 'Orphan', 'Owner', 'Unused']);
    expect([...removed.fields].sort()).toEqual(['Item.owner', 'Item.secret', 'ItemFilter.size', 'Query.box', 'Query.gone']);
    const left = resolversLeft({ Query: { open: () => 'open', gone: () => 'gone', box: () => ({}) }, Owner: { name: () => 'x' }, Item: { id: () => '1' } }, removed);
    expect(Object.keys(left)).toEqual(['Query', 'Item']);
    expect(Object.keys(left.Query as object)).toEqual(['open']);
    // written for a field that never was, a resolver still fails the build
    expect(() => makeExecutableSchema({ typeDefs: schema, resolvers: resolversLeft({ Query: { typo: () => 1 } }, removed) })).toThrow(/Query.typo defined in resolvers, but not in schema/);
  });
});

describe('@auth', () => {
  const schema = applyFieldAuth(schemaOf(), new Map<string, FieldAuth>([['Query.open', { scope: ['api::item.item.open'] }], ['Query.item', false]]));

  test('copies the scope into field extensions, where resolversConfig replaces it', () => {
    expect(authOf(schema.getQueryType()!.getFields().items)).toEqual({ scope: ['api::item.item.find'] });
    expect(authOf(schema.getQueryType()!.getFields().guarded)).toBeUndefined();
    expect(authOf(schema.getQueryType()!.getFields().open)).toEqual({ scope: ['api::item.item.open'] });
    expect(authOf(schema.getQueryType()!.getFields().item)).toBe(false);
  });

  test('the authorization rule forbids what the principal cannot do, inside fragments too', () => {
    const reader = createRolePrincipal('public', 'public', new Set(['api::item.item.find']), 0);
    expect(findForbidden(schema, parse('{ items { id } }'), reader)).toHaveLength(0);
    const forbidden = findForbidden(schema, parse('{ ...F } fragment F on Query { open }'), reader);
    expect(forbidden).toHaveLength(1);
    expect(forbidden[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('@policy', () => {
  const seen: unknown[] = [];
  const policies = new Map<string, Policy>([
    ['isNotBob', ({ args }) => args.value !== 'bob'],
    ['hasConfig', ({ config }) => {
      seen.push(config);
      return true;
    }],
  ]);
  const schema = policyDirectiveTransformer(policies)(schemaOf());

  test('runs registered policies with their config; a falsy result is FORBIDDEN', async () => {
    const allowed = await execute({ schema, document: parse('{ guarded(value: "ann") }') });
    expect(allowed).toEqual({ data: { guarded: 'ann' } });
    expect(seen).toEqual([{ level: 2 }]);
    const blocked = await execute({ schema, document: parse('{ guarded(value: "bob") }') });
    expect(blocked.data).toEqual({ guarded: null });
    expect(blocked.errors![0].extensions.code).toBe('FORBIDDEN');
  });

  test('an unknown policy name fails the build with a plain message', () => {
    expect(() => policyDirectiveTransformer(new Map())(schemaOf())).toThrow(/unknown policy "isNotBob"/);
  });
});
