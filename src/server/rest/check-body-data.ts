import { coerceInputValue, getNullableType, isEnumType, isInputObjectType, isListType, type GraphQLInputType } from 'graphql';
import { badUserInput, validationErrors, type ValidationIssue } from '../../errors/graphql-errors';
import { jsonDepthExceeds } from '../../graphql/plugins/use-input-depth-limit';
import { isRecord } from '../../common/is-record';

/**
 * The body's `data`, checked against the mutation's `<Type>Input` before anything runs, so that
 * errors name the attribute the way Strapi's REST does: an unknown key is `Invalid key nope`
 * (source body), a value of the wrong type is a ValidationError listing each path. Without this,
 * GraphQL's variable coercion would report the first problem only, as prose.
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

/** `prepare`: what `data` becomes before it is checked against the input type (what the type cannot hold taken out) */
export const dataOfBody = (body: unknown, inputType: GraphQLInputType, prepare: (data: Record<string, unknown>) => Record<string, unknown>): Record<string, unknown> => {
  const given = isRecord(body) ? body.data : undefined;
  const data = isRecord(given) ? (toEnumNames(given, inputType) as Record<string, unknown>) : given;
  if (!isRecord(data)) throw badUserInput('Missing "data" payload in the request body');
  if (jsonDepthExceeds(data, MAX_DATA_DEPTH)) throw badUserInput(`data nests deeper than ${MAX_DATA_DEPTH} levels`, { key: 'data', path: null, source: 'body' });
  const type = getNullableType(inputType);
  if (!isInputObjectType(type)) return prepare(data);
  const fields = type.getFields();
  const unknown = Object.keys(data).find((key) => !Object.prototype.hasOwnProperty.call(fields, key));
  if (unknown !== undefined) throw badUserInput(`Invalid key ${unknown}`, { key: unknown, path: null, source: 'body' });
  const kept = prepare(data);
  const issues: ValidationIssue[] = [];
  coerceInputValue(kept, type, (path, value, error) => {
    const where = path.map(String);
    issues.push({ path: where, message: `${where.join('.')} is invalid: ${error.message}`, name: 'ValidationError', value });
  });
  if (issues.length > 0) throw validationErrors(issues);
  return kept;
};
