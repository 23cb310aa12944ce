import { approximateBytes, withReadBudget } from '../../src/documents/read-budget';
import type { DocumentService } from '../../src/documents/document-service';
import type { ContentType } from '../../src/models/types';
import type { StoredDocument } from '../../src/storage/types';

/** A document service whose reads each answer `perRead` after a tick, recording how many run at once. */
const fakeDocuments = (perRead: StoredDocument[]) => {
  const seen = { started: 0, inFlight: 0, most: 0 };
  const read = async () => {
    seen.started += 1;
    seen.inFlight += 1;
    seen.most = Math.max(seen.most, seen.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5));
    seen.inFlight -= 1;
    return perRead;
  };
  const documents = { findMany: read, findPage: async () => ({ documents: await read(), total: perRead.length }) } as unknown as DocumentService;
  return { documents, seen };
};

const article = {} as ContentType;
const scope = { status: 'published' as const };

test('approximateBytes is about the JSON length', () => {
  const document = { title: 'x'.repeat(1000), views: 3, tags: [{ name: 'a' }], meta: null };
  const json = JSON.stringify(document).length;
  expect(approximateBytes(document)).toBeGreaterThanOrEqual(json);
  expect(approximateBytes(document)).toBeLessThan(json * 1.1);
});

test('reads count until the budget is spent; then the read that passed it fails, and no later read starts', async () => {
  const page = [{ title: 'x'.repeat(1000) }];
  const { documents, seen } = fakeDocuments(page);
  const budgeted = withReadBudget(documents, 2500, (bytes) => new Error(`read ${bytes}`));
  await budgeted.findMany(article, scope);
  await budgeted.findMany(article, scope);
  await expect(budgeted.findMany(article, scope)).rejects.toThrow(/^read 3\d{3}$/);
  await expect(budgeted.findPage(article, scope)).rejects.toThrow(/^read/);
  expect(seen.started).toBe(3);
});

test('at most 4 reads of one operation run at once: 30 aliases read 4 at a time, and stop once over', async () => {
  const { documents, seen } = fakeDocuments([{ title: 'x'.repeat(1000) }]);
  const budgeted = withReadBudget(documents, 5500, (bytes) => new Error(`read ${bytes}`));
  const results = await Promise.allSettled(Array.from({ length: 30 }, () => budgeted.findMany(article, scope)));
  expect(seen.most).toBe(4);
  expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(5);
  // the reads under way when the budget went are the only ones past it
  expect(seen.started).toBeLessThanOrEqual(5 + 4);
});
