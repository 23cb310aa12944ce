/** An object that is not an array: the shape of a JSON object in a request body, query string or argument. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
