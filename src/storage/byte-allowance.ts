/**
 * The bytes of documents that the reads of one operation may take together (graphql.maxReadBytes), counted
 * where each read runs: a reader thread counts a page as SQLite hands it over, and refuses it past the
 * allowance before parsing it or sending it to the main thread. Counted there after each read instead, an
 * operation's concurrent reads all crossed first: 4 aliased pages of 10 MB each put 40 MB in the main heap
 * against an allowance of 32. The tally is shared memory, so that the threads add to it atomically.
 */
export interface ByteAllowance {
  readonly tally: BigInt64Array;
  readonly max: number;
}

export const createByteAllowance = (max: number): ByteAllowance => ({ tally: new BigInt64Array(new SharedArrayBuffer(8)), max });

export const bytesSpent = (allowance: ByteAllowance): number => Number(Atomics.load(allowance.tally, 0));

/** Adds `bytes` to the tally; throws once the tally is past the allowance. */
export function spendBytes(allowance: ByteAllowance, bytes: number): void {
  const spent = Number(Atomics.add(allowance.tally, 0, BigInt(bytes))) + bytes;
  if (spent > allowance.max) throw new AllowanceSpentError(spent, allowance.max);
}

/** About the bytes of a value as JSON, counted without writing it: what a document read holds in memory. */
export const approximateBytes = (value: unknown): number => {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value !== 'object' || value === null) return 8;
  let bytes = 2;
  if (Array.isArray(value)) {
    for (const item of value) bytes += approximateBytes(item) + 1;
    return bytes;
  }
  for (const key in value) bytes += key.length + 4 + approximateBytes((value as Record<string, unknown>)[key]);
  return bytes;
};

/** approximateBytes of each document, summed */
export const documentsBytes = (documents: readonly unknown[]): number => documents.reduce((bytes: number, document) => bytes + approximateBytes(document), 0);

/** A read refused: the operation's reads took more than their allowance. */
export class AllowanceSpentError extends Error {
  static readonly code = 'FOLIO_ALLOWANCE_SPENT';
  readonly code = AllowanceSpentError.code;
  constructor(
    readonly spent: number,
    readonly max: number,
  ) {
    super(`the reads took ${spent} bytes of documents, past their allowance of ${max}`);
    this.name = 'AllowanceSpentError';
  }
}
