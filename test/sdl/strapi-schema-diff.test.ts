import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema as parseSdl, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isUnionType, type GraphQLField, type GraphQLInputField, type GraphQLSchema } from 'graphql';
import { assembleProject } from '../../src/app/served-schema';
import { EXAMPLE_SCHEMA } from '../support/test-server';
import { writeConfigFiles } from '../support/server-process';
import { tmpdir } from 'node:os';

/**
 * Folio's schema for the blog example against the one Strapi 5.54 generates for the same models
 * (test/fixtures/strapi-5.54/schema.graphql, a copy of ../shared/reference/strapi-5.54's): every type, field, argument, enum value and
 * union member of Strapi's must be in Folio's with the same type. Folio's additions are not differences.
 */

const REFERENCE = join(__dirname, '..', 'fixtures', 'strapi-5.54', 'schema.graphql');

const typeText = (field: GraphQLField<unknown, unknown> | GraphQLInputField): string => String(field.type);

/** One line per difference: `missing type X`, `missing field X.f: T`, `type X.f: T (Folio: U)`, `missing argument X.f(a: T)`… */
const differences = (reference: GraphQLSchema, folio: GraphQLSchema): string[] => {
  const found: string[] = [];
  for (const [name, type] of Object.entries(reference.getTypeMap())) {
    if (name.startsWith('__')) continue;
    const own = folio.getType(name);
    if (!own) {
      found.push(`missing type ${name}`);
      continue;
    }
    if (own.constructor !== type.constructor) found.push(`kind of ${name}`);
    if ((isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) && (isObjectType(own) || isInterfaceType(own) || isInputObjectType(own))) {
      const ownFields = own.getFields() as Record<string, GraphQLField<unknown, unknown> | GraphQLInputField>;
      for (const [fieldName, field] of Object.entries(type.getFields() as Record<string, GraphQLField<unknown, unknown> | GraphQLInputField>)) {
        const ownField = ownFields[fieldName];
        if (!ownField) {
          found.push(`missing field ${name}.${fieldName}: ${typeText(field)}`);
          continue;
        }
        if (typeText(ownField) !== typeText(field)) found.push(`type ${name}.${fieldName}: ${typeText(field)} (Folio: ${typeText(ownField)})`);
        for (const argument of 'args' in field ? field.args : []) {
          const ownArgument = 'args' in ownField ? ownField.args.find((candidate) => candidate.name === argument.name) : undefined;
          if (!ownArgument) found.push(`missing argument ${name}.${fieldName}(${argument.name}: ${String(argument.type)})`);
          else if (String(ownArgument.type) !== String(argument.type)) found.push(`argument ${name}.${fieldName}(${argument.name}): ${String(argument.type)} (Folio: ${String(ownArgument.type)})`);
        }
      }
    } else if (isEnumType(type) && isEnumType(own)) {
      for (const value of type.getValues()) if (!own.getValue(value.name)) found.push(`missing enum value ${name}.${value.name}`);
    } else if (isUnionType(type) && isUnionType(own)) {
      const members = new Set(own.getTypes().map((member) => member.name));
      for (const member of type.getTypes()) if (!members.has(member.name)) found.push(`missing union member ${name}: ${member.name}`);
    }
  }
  return found;
};

let folio: GraphQLSchema;
beforeAll(async () => {
  const configDir = mkdtempSync(join(tmpdir(), 'folio-sdl-diff-'));
  writeConfigFiles(configDir, { plugins: { i18n: { config: { locales: ['en', 'fr'], defaultLocale: 'en' } } } });
  try {
    folio = await assembleProject({ schemaDir: EXAMPLE_SCHEMA, configDir, env: { NODE_ENV: 'test' } });
  } finally {
    rmSync(configDir, { recursive: true, force: true });
  }
});

test("every type, field, argument, enum value and union member of Strapi's schema is in Folio's with the same type", () => {
  expect(differences(parseSdl(readFileSync(REFERENCE, 'utf8')), folio)).toEqual([]);
});
