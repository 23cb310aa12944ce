import type { DocumentService } from './document-service';
import type { StoredDocument } from '../storage/types';

/**
 * What one operation may read from the store: `maxBytes` of documents, at most READS_IN_FLIGHT reads
 * at a time. The cost limit counts values, not their size: 30 aliases of a 100-document page are a
 * cost of 3,030, yet with 100 KB titles they read and parsed 100 MB, and four such requests at once
 * took the process from 390 MB to 2.3 GB before `maxResponseBytes` refused each answer. Reads of an
 * operation wait for a slot, and none starts once the budget is spent, so an operation holds at
 * most its budget and the reads under way.
 */

const READS_IN_FLIGHT = 4;

/** About the bytes of a document as JSON: what reading it held in memory, counted without writing it. */
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

const documentsBytes = (documents: readonly StoredDocument[]): number => {
  let bytes = 0;
  for (const document of documents) bytes += approximateBytes(document);
  return bytes;
};

/** `documents` whose reads count against `maxBytes`; `exceeded` is the error thrown once they pass it. */
export const withReadBudget = (documents: DocumentService, maxBytes: number, exceeded: (bytes: number) => Error): DocumentService => {
  let spent = 0;
  let inFlight = 0;
  const waiting: Array<() => void> = [];
  const acquire = async (): Promise<void> => {
    if (inFlight < READS_IN_FLIGHT) inFlight += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
  };
  // a slot given up goes to the read waiting longest, or back to the pool
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else inFlight -= 1;
  };
  const metered = async <T>(read: () => Promise<T>, bytesOf: (result: T) => number): Promise<T> => {
    await acquire();
    try {
      if (spent > maxBytes) throw exceeded(spent);
      const result = await read();
      spent += bytesOf(result);
      if (spent > maxBytes) throw exceeded(spent);
      return result;
    } finally {
      release();
    }
  };
  const one = (document: StoredDocument | null) => (document ? approximateBytes(document) : 0);
  return {
    ...documents,
    findMany: (...args) => metered(() => documents.findMany(...args), documentsBytes),
    findPage: (...args) => metered(() => documents.findPage(...args), (page) => documentsBytes(page.documents)),
    findOne: (...args) => metered(() => documents.findOne(...args), one),
    findFirst: (...args) => metered(() => documents.findFirst(...args), one),
  };
};
