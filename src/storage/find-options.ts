import type { ByteAllowance } from './byte-allowance';
import type { FindOptions, SortSpec } from './types';

export interface NormalizedFindOptions {
  sort: SortSpec;
  skip: number;
  /** undefined: no limit (a limit of 0 means none, as in MongoDB) */
  limit: number | undefined;
  projection: string[] | undefined;
  allowance: ByteAllowance | undefined;
}

function assertCount(value: number | undefined, name: string): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
    throw new Error(`${name} must be a non-negative integer, got ${String(value)}`);
  }
}

/** Validates what callers pass, so both engines refuse the same mistakes with the same message. */
export function normalizeFindOptions(options: FindOptions = {}): NormalizedFindOptions {
  assertCount(options.skip, 'skip');
  assertCount(options.limit, 'limit');
  const sort = options.sort ?? [];
  for (const entry of sort) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || entry[0] === '' || entry[0].startsWith('$') || (entry[1] !== 1 && entry[1] !== -1)) {
      throw new Error(`invalid sort entry ${JSON.stringify(entry)}`);
    }
  }
  const projection = options.projection;
  if (projection && !projection.every((field) => typeof field === 'string' && field !== '' && !field.includes('.') && !field.startsWith('$'))) {
    throw new Error(`projection takes top-level field names, got ${JSON.stringify(projection)}`);
  }
  return { sort, skip: options.skip ?? 0, limit: options.limit || undefined, projection, allowance: options.allowance };
}

export function assertBatchSize(batchSize: number): void {
  if (!(Number.isSafeInteger(batchSize) && batchSize > 0)) throw new Error(`batch size must be a positive integer, got ${String(batchSize)}`);
}
