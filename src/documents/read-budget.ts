import type { DocumentService } from './document-service';
import { AllowanceSpentError, approximateBytes, bytesSpent, spendBytes, type ByteAllowance } from '../storage/byte-allowance';
import type { StoredDocument } from '../storage/types';

/**
 * What one operation may read from the store: `maxBytes` of documents, at most READS_IN_FLIGHT reads
 * at a time. The cost limit counts values, not their size: 30 aliases of a 100-document page are a
 * cost of 3,030, yet with 100 KB titles they read and parsed 100 MB, and four such requests at once
 * took the process from 390 MB to 2.3 GB before `maxResponseBytes` refused each answer. Lists are counted
 * by the store where it reads them (storage/byte-allowance), so a page past what is left never reaches this
 * thread; a single document is counted here once read. No read starts once the budget is spent.
 */

const READS_IN_FLIGHT = 4;

/** `documents` whose reads count against `allowance`; `exceeded` is the error thrown once they pass it. */
export const withReadBudget = (documents: DocumentService, allowance: ByteAllowance, exceeded: (bytes: number) => Error): DocumentService => {
  const maxBytes = allowance.max;
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
  const metered = async <T>(read: () => Promise<T>): Promise<T> => {
    await acquire();
    try {
      if (bytesSpent(allowance) > maxBytes) throw exceeded(bytesSpent(allowance));
      return await read();
    } catch (error) {
      throw error instanceof AllowanceSpentError ? exceeded(error.spent) : error;
    } finally {
      release();
    }
  };
  const one = async (read: Promise<StoredDocument | null>): Promise<StoredDocument | null> => {
    const document = await read;
    if (document) spendBytes(allowance, approximateBytes(document));
    return document;
  };
  return {
    ...documents,
    findMany: (contentType, scope, query = {}) => metered(() => documents.findMany(contentType, scope, { ...query, allowance })),
    findPage: (contentType, scope, query = {}) => metered(() => documents.findPage(contentType, scope, { ...query, allowance })),
    findOne: (...args) => metered(() => one(documents.findOne(...args))),
    findFirst: (...args) => metered(() => one(documents.findFirst(...args))),
  };
};
