import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStore } from '../../src/storage/open-store';
import type { Store } from '../../src/storage/types';

/**
 * Review of 77124d0 (a read whose catalog changed while it waited for a reader thread is read again on this
 * thread): what that second read costs the main thread.
 */
describe('embedded engine: a read again after a change of the catalog', () => {
  let dataDir: string;
  let store: Store;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-here-review-'));
    store = await openStore({ client: 'embedded' }, dataDir);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** the longest the event loop went without running a timer while `work` ran */
  async function longestStall<T>(work: () => Promise<T>): Promise<{ answer: T; stall: number }> {
    let last = performance.now();
    let stall = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last);
      last = now;
    }, 5);
    try {
      const answer = await work();
      // a stall that ends with the answer is seen by the next tick only
      await sleep(30);
      return { answer, stall };
    } finally {
      clearInterval(timer);
    }
  }

  test('a scan whose catalog changed while it ran on a reader thread does not hold the main thread for its second read', async () => {
    const slow = store.collection('slow');
    await slow.insertOne({ s: 'a'.repeat(24) });
    // the reader threads started
    await slow.countDocuments({ s: { $regex: 'warm' } });
    const { answer, stall } = await longestStall(async () => {
      // a RegExp that backtracks on the one document: a scan of a second or so, on a reader thread
      const read = slow.countDocuments({ s: { $regex: '^(a|a)+b$' } });
      // meanwhile, a field's first value elsewhere: a change of the catalog
      await store.collection('other').insertOne({ fresh: 1 });
      return read;
    });
    expect(answer).toBe(0);
    // the first read ran apart; the second, on this thread, stalled every other request for as long
    expect(stall).toBeLessThan(250);
  });
});
