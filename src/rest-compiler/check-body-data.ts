import { coerceInputValue, getNullableType, isEnumType, isInputObjectType, isListType, type GraphQLInputType } from 'graphql';
import { badUserInput, validationErrors, type ValidationIssue } from '../errors/graphql-errors';
import { jsonDepthExceeds } from '../graphql/plugins/use-input-depth-limit';
import { isRecord } from '../common/is-record';
import { yupPath } from '../documents/validation-paths';

/**
 * The body's `data`, checked before anything runs, so that errors name the attribute the way
 * Strapi's REST does: an unknown key is `Invalid key nope` (source body); a value the mutation's
 * `<Type>Input` cannot hold is a ValidationError listing each path (without this, GraphQL's
 * variable coercion would report the first problem only, as prose). Where the input type refuses
 * a value, or would wrap it in a list (an object given for a repeatable component), the data as
 * sent is first checked by the document service's validator (`check`), whose words are Strapi's:
 * `compos must be a \`array\` type, but the final value was: \`{}\`.`. Data the input type takes
 * as sent is validated once, by the document service, after the caller is authorized.
 */

/** as deep as the GraphQL pipeline accepts input values */
const MAX_DATA_DEPTH = 100;


/** REST bodies hold enumeration values as stored (`datetime-local`); the mutation's variables take their GraphQL names. */
const toEnumNames = (value: unknown, type: GraphQLInputType): unknown => {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return Array.isArray(value) ? value.map((item) => toEnumNames(item, nullable.ofType)) : toEnumNames(value, nullable.ofType);
  if (isEnumType(nullable)) return nullable.getValues().find((candidate) => candidate.value === value)?.name ?? value;
  if (!isInputObjectType(nullable) || !isRecord(value)) return value;
  const fields = nullable.getFields();
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, Object.prototype.hasOwnProperty.call(fields, key) ? toEnumNames(item, fields[key].type) : item]));
};

/** Whether GraphQL's coercion would wrap a value in a list: a list type given one value. */
const wrapsInList = (value: unknown, type: GraphQLInputType): boolean => {
  const nullable = getNullableType(type);
  if (value === null || value === undefined) return false;
  if (isListType(nullable)) return !Array.isArray(value) || value.some((item) => wrapsInList(item, nullable.ofType));
  if (!isInputObjectType(nullable) || !isRecord(value)) return false;
  const fields = nullable.getFields();
  return Object.entries(value).some(([key, item]) => Object.hasOwn(fields, key) && wrapsInList(item, fields[key].type));
};

/**
 * `check`: throws the issues of `data` as sent; `prepare`: what `data` becomes before it is checked
 * against the input type (what the type cannot hold taken out)
 */
export const dataOfBody = (
  body: unknown,
  inputType: GraphQLInputType,
  check: (data: Record<string, unknown>) => void,
  prepare: (data: Record<string, unknown>) => Record<string, unknown>,
): Record<string, unknown> => {
  const given = isRecord(body) ? body.data : undefined;
  if (!isRecord(given)) throw badUserInput('Missing "data" payload in the request body');
  if (jsonDepthExceeds(given, MAX_DATA_DEPTH)) throw badUserInput(`data nests deeper than ${MAX_DATA_DEPTH} levels`, { key: 'data', path: null, source: 'body' });
  const type = getNullableType(inputType);
  if (isInputObjectType(type)) {
    const fields = type.getFields();
    const unknown = Object.keys(given).find((key) => !Object.prototype.hasOwnProperty.call(fields, key));
    if (unknown !== undefined) throw badUserInput(`Invalid key ${unknown}`, { key: unknown, path: null, source: 'body' });
  }
  const data = toEnumNames(given, inputType) as Record<string, unknown>;
  if (!isInputObjectType(type)) return prepare(data);
  const kept = prepare(data);
  const issues: ValidationIssue[] = [];
  coerceInputValue(kept, type, (path, value, error) => {
    const where = path.map(String);
    issues.push({ path: where, message: `${yupPath(where)} is invalid: ${error.message}`, name: 'ValidationError', value });
  });
  if (issues.length > 0 || wrapsInList(kept, type)) check(given);
  if (issues.length > 0) throw validationErrors(issues);
  return kept;
};
