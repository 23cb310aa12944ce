import { z } from 'zod';
import { anyObject, anyString, anyValue, arrayOf, boolean, either, expecting, object, oneOf, recordOf, string, validate } from '../config/config-schema';
import type { Extension } from './types';

/**
 * What an extension module (`schema/extensions/*.js`) may export, key by key: a misspelled export
 * (`typedefs`) or a misread `resolversConfig` entry (`auth: { scopes }`) stops start-up naming the file
 * and the path in it. Cross-checks against the schema (types, fields, policy names) are made where the
 * schema is built (schema/apply-resolvers-config).
 */

const fn = z.instanceof(Function, expecting('a function'));
const name = string();

const policyEntry = z.union([name, fn, object({ name, config: anyValue.optional() })], expecting('a policy name, a function or { name, config }'));
const middlewareEntry = z.union([name, fn, object({ name, options: anyValue.optional() })], expecting('a middleware name, a function or { name, options }'));

const resolverConfig = object({
  auth: either(z.literal(false), object({ scope: arrayOf(anyString) }), 'false, or { scope: [permissions] }').optional(),
  policies: arrayOf(policyEntry).optional(),
  middlewares: arrayOf(middlewareEntry).optional(),
});

const fieldSwitches = object({ disable: boolean.optional(), output: boolean.optional(), input: boolean.optional(), filters: boolean.optional() });

const typeSwitches = object({
  disable: boolean.optional(),
  disableQueries: boolean.optional(),
  disableMutations: boolean.optional(),
  disableActions: arrayOf(oneOf(['find', 'findOne', 'create', 'update', 'delete'])).optional(),
  fields: recordOf(fieldSwitches).optional(),
});

export const extensionSchema = object(
  {
    typeDefs: anyString.optional(),
    // graphql-tools' resolver map: objects of field resolvers, or scalar instances
    resolvers: recordOf(z.custom<object>((value) => typeof value === 'object' && value !== null, expecting('an object of field resolvers, or a scalar'))).optional(),
    resolversConfig: recordOf(resolverConfig).optional(),
    shadowCRUD: recordOf(typeSwitches).optional(),
    policies: recordOf(fn).optional(),
    middlewares: recordOf(fn).optional(),
    plugins: either(arrayOf(anyObject), fn, 'an array of envelop or graphql-yoga plugins, or a function returning one').optional(),
  },
  { keyNoun: 'export' },
);

/** The module's export as an Extension, or an error naming the file and every mistake in it. */
export const checkExtension = (path: string, exported: unknown): Extension => {
  if (typeof exported !== 'object' || exported === null || Array.isArray(exported)) {
    throw new Error(`${path}: an extension module exports an object or a function returning one`);
  }
  const { issues } = validate(extensionSchema, exported);
  if (issues.length > 0) throw new Error(issues.map((issue) => `${path}: ${issue.path} ${issue.message}`).join('\n'));
  // the module's own objects, not the parsed copy: resolvers and plugins keep their identity
  return exported as Extension;
};
