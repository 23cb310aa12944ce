import { withReadBudget } from '../../src/documents/read-budget';
import type { DocumentService } from '../../src/documents/document-service';
import type { ListQuery } from '../../src/documents/document-reads';
import type { ContentType } from '../../src/models/types';
import { approximateBytes, createByteAllowance, spendBytes } from '../../src/storage/byte-allowance';
import type { StoredDocument } from '../../src/storage/types';

/**
 * A document service whose reads each answer `perRead` after a tick, counting lists against the allowance they
 * are given as a store does, and recording how many run at once.
 */
const fakeDocuments = (perRead: StoredDocument[]) => {
  const seen = { started: 0, inFlight: 0, most: 0 };
  const read = async (query?: ListQuery) => {
    seen.started += 1;
    seen.inFlight += 1;
    seen.most = Math.max(seen.most, seen.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5));
    seen.inFlight -= 1;
    if (query?.allowance) spendBytes(query.allowance, perRead.reduce((bytes, document) => bytes + approximateBytes(document), 0));
    return perRead;
  };
  const documents = {
    findMany: (_type: ContentType, _scope: unknown, query?: ListQuery) => read(query),
    findPage: async (_type: ContentType, _scope: unknown, query?: ListQuery) => ({ documents: await read(query), total: perRead.length }),
    findOne: async () => (await read())[0],
  } as unknown as DocumentService;
  return { documents, seen };
};

const article = {} as ContentType;
const scope = { status: 'published' as const };

test('reads count until the budget is spent; then the read that passed it fails, and no later read starts', async () => {
  const page = [{ title: 'x'.repeat(1000) }];
  const { documents, seen } = fakeDocuments(page);
  const budgeted = withReadBudget(documents, createByteAllowance(2500), (bytes) => new Error(`read ${bytes}`));
  await budgeted.findMany(article, scope);
  await budgeted.findOne(article, 'a', scope);
  await expect(budgeted.findMany(article, scope)).rejects.toThrow(/^read 3\d{3}$/);
  await expect(budgeted.findPage(article, scope)).rejects.toThrow(/^read/);
  expect(seen.started).toBe(3);
});

test('a single document is counted once read', async () => {
  const { documents } = fakeDocuments([{ title: 'x'.repeat(1000) }]);
  const budgeted = withReadBudget(documents, createByteAllowance(1500), (bytes) => new Error(`read ${bytes}`));
  await budgeted.findOne(article, 'a', scope);
  await expect(budgeted.findOne(article, 'a', scope)).rejects.toThrow(/^read 2\d{3}$/);
});

test('at most 4 reads of one operation run at once: 30 aliases read 4 at a time, and stop once over', async () => {
  const { documents, seen } = fakeDocuments([{ title: 'x'.repeat(1000) }]);
  const budgeted = withReadBudget(documents, createByteAllowance(5500), (bytes) => new Error(`read ${bytes}`));
  const results = await Promise.allSettled(Array.from({ length: 30 }, () => budgeted.findMany(article, scope)));
  expect(seen.most).toBe(4);
  expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(5);
  // the reads under way when the budget went are the only ones past it
  expect(seen.started).toBeLessThanOrEqual(5 + 4);
});
