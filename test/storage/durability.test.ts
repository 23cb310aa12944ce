import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/storage/open-store';

const REGISTER_TS = join(__dirname, '..', 'support', 'register-ts.js');
const WRITER = join(__dirname, 'fixtures', 'insert-until-killed.js');
/** loops writing at once in the writer */
const LANES = 4;

/**
 * Runs the writer (LANES loops writing at once) until every lane has acknowledged `rounds` rounds, then kills
 * it with SIGKILL mid-stream; the rounds each lane acknowledged.
 */
function writeUntilKilled(dataDir: string, rounds: number): Promise<Map<number, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', REGISTER_TS, WRITER, dataDir, String(LANES)], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acknowledged = new Map<number, number>();
    let pending = '';
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const [, lane, n] = line.split(' ').map(Number);
        acknowledged.set(lane, Math.max(acknowledged.get(lane) ?? 0, n));
      }
      if (acknowledged.size === LANES && [...acknowledged.values()].every((n) => n >= rounds) && !child.killed) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acknowledged);
      else reject(new Error(`writer exited on its own (code ${code}): ${errors}`));
    });
  });
}

describe('embedded engine durability', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'folio-durability-'));
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('every write acknowledged before kill -9 is there after reopening, transactions whole', async () => {
    const acknowledged = await writeUntilKilled(dataDir, 60);

    const store = await openStore({ client: 'embedded' }, dataDir);
    try {
      const rounds = store.collection('rounds');
      const documents = await rounds.find({}, { sort: [['n', 1], ['key', 1]] });
      const byRound = new Map<string, string[]>();
      for (const document of documents) {
        const round = `${document.lane as number} ${document.n as number}`;
        byRound.set(round, [...(byRound.get(round) ?? []), document.kind as string]);
      }
      expect(acknowledged.size).toBe(LANES);
      for (const [lane, last] of acknowledged) {
        expect(last).toBeGreaterThanOrEqual(60);
        for (let n = 1; n <= last; n++) expect([lane, n, byRound.get(`${lane} ${n}`)]).toEqual([lane, n, ['pair', 'pair', 'single']]);
      }
      // a round in flight at the kill may be partly there, but never half a transaction
      for (const [round, kinds] of byRound) {
        const [lane, n] = round.split(' ').map(Number);
        if (n > (acknowledged.get(lane) ?? 0)) expect([['single'], ['pair', 'pair', 'single']]).toContainEqual(kinds);
      }

      // not corrupt: the unique index came back, and the store takes new writes
      await expect(rounds.insertOne({ key: 'single-0-1' })).rejects.toThrow(/unique/);
      await rounds.insertOne({ key: 'after-restart' });
      expect(await rounds.countDocuments({ key: 'after-restart' })).toBe(1);
    } finally {
      await store.close();
    }
  });
});

test('a write started from inside a transaction that lands while it commits is kept, on disk too', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-stray-write-'));
  try {
    let store = await openStore({ client: 'embedded' }, dataDir);
    const notes = store.collection('notes');
    let stray: Promise<unknown> | undefined;
    await store.transaction(async () => {
      await notes.insertOne({ id: 1, text: 'in the transaction' });
      // as a webhook nudge does: work scheduled from inside, running once the transaction's own work is done
      setImmediate(() => {
        stray = notes.insertOne({ id: 2, text: 'from a timer the transaction started' });
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await stray;
    expect(await notes.countDocuments({})).toBe(2);
    await store.close();
    store = await openStore({ client: 'embedded' }, dataDir);
    expect((await store.collection('notes').find({}, { sort: [['id', 1]] })).map((row) => row.id)).toEqual([1, 2]);
    await store.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
