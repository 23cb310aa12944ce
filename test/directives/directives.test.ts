import { makeExecutableSchema } from '@graphql-tools/schema';
import { execute, parse, printSchema, type GraphQLObjectType } from 'graphql';
import {
  authDirectiveTransformer,
  authOf,
  DIRECTIVE_SDL,
  disabledDirectiveTransformer,
  policyDirectiveTransformer,
  type Policy,
} from '../../src/directives/index';
import { findForbidden } from '../../src/graphql/plugins/use-authorization';
import { createRolePrincipal } from '../../src/auth/principal';

const base = `
${DIRECTIVE_SDL}
scalar JSON
type Item { id: ID! secret: String @disabled owner: Owner }
type Owner @disabled { name: String }
input ItemFilter { name: String size: Int @disabled }
type Query {
  items(filter: ItemFilter, legacy: Boolean @disabled): [Item] @auth(scope: ["api::item.item.find"])
  item: Item @auth(scope: ["api::item.item.findOne"])
  open: String
  guarded(value: String): String @policy(name: "isNotBob") @policy(name: "hasConfig", config: { level: 2 })
  gone: String @disabled
}
type Mutation { onlyDisabled: String @disabled }
`;

const schemaOf = () =>
  makeExecutableSchema({
    typeDefs: base,
    resolvers: { Query: { open: () => 'open', guarded: (_: unknown, args: { value: string }) => args.value } },
  });

describe('@disabled', () => {
  const schema = disabledDirectiveTransformer(schemaOf());
  const printed = printSchema(schema);

  test('removes marked types, fields, input fields and arguments', () => {
    expect(schema.getType('Owner')).toBeUndefined();
    const item = schema.getType('Item') as GraphQLObjectType;
    expect(Object.keys(item.getFields())).toEqual(['id']);
    expect(printed).not.toMatch(/size: Int/);
    expect(printed).not.toMatch(/legacy/);
    expect(printed).not.toMatch(/gone/);
  });

  test('drops a root type left empty', () => {
    expect(schema.getMutationType()).toBeUndefined();
  });
});

describe('@auth', () => {
  const schema = authDirectiveTransformer(schemaOf());

  test('copies the scope into field extensions', () => {
    expect(authOf(schema.getQueryType()!.getFields().items)).toEqual({ scope: ['api::item.item.find'] });
    expect(authOf(schema.getQueryType()!.getFields().open)).toBeUndefined();
  });

  test('the authorization rule forbids what the principal cannot do, inside fragments too', () => {
    const reader = createRolePrincipal('public', 'public', new Set(['api::item.item.find']), 0);
    expect(findForbidden(schema, parse('{ items { id } }'), reader)).toHaveLength(0);
    const forbidden = findForbidden(schema, parse('{ ...F } fragment F on Query { item { id } }'), reader);
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
