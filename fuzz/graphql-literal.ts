/** A JSON value as a GraphQL literal; keys that are no GraphQL name are left out. */
export const literalOf = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(literalOf).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{ ${Object.entries(value).filter(([key]) => /^[_A-Za-z]\w*$/.test(key)).map(([key, item]) => `${key}: ${literalOf(item)}`).join(', ')} }`;
  }
  return typeof value === 'number' && !Number.isFinite(value) ? 'null' : (JSON.stringify(value) ?? 'null');
};
