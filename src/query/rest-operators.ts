import type { ContentType, Models } from '../models/types';
import { isRecord } from '../common/is-record';

/** REST values arrive as strings; the attribute's type says what they mean. */
const coerceRestValue = (type: string | undefined, value: unknown): unknown => {
  if (Array.isArray(value)) return value.map((item) => coerceRestValue(type, item));
  if (typeof value !== 'string') return value;
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  if ((type === 'integer' || type === 'float' || type === 'decimal') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
};

/**
 * `{ blocked: { $eq: 'true' } }` → `{ blocked: { eq: true } }`: the filters of a REST route that reads a
 * model directly (users, files) in the filter translator's form, by the model's attributes.
 */

export const fromRestOperators = (models: Models, contentType: ContentType, value: unknown): unknown => {
  if (Array.isArray(value)) return value.map((item) => fromRestOperators(models, contentType, item));
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      if (key === '$and' || key === '$or' || key === '$not') return [key.slice(1), fromRestOperators(models, contentType, inner)];
      const attribute = Object.hasOwn(contentType.attributes, key) ? contentType.attributes[key] : undefined;
      if (attribute?.type === 'relation') {
        const target = models.contentTypes.get(attribute.target);
        return [key, target ? fromRestOperators(models, target, inner) : inner];
      }
      const operators = isRecord(inner)
        ? Object.fromEntries(Object.entries(inner).map(([operator, operand]) => [operator.replace(/^\$/, ''), coerceRestValue(attribute?.type, operand)]))
        : inner;
      return [key, operators];
    }),
  );
};
