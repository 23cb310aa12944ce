import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModels } from '../../src/models/load-models';
import { openStore } from '../../src/storage/open-store';
import type { Filter, Store } from '../../src/storage/types';
import { bigintRange, type RangeOperator } from '../../src/query/bigint-range';
import { createFilterTranslator } from '../../src/query/translate-filters';
import { coerceScalar } from '../../src/documents/coerce-scalar';
import { writeOneTypeSchema } from '../support/one-type-schema';

/** Ranges on big integers follow numeric order, not the order of the text they are stored as. */

const VALUES = ['-1000', '-999', '-120', '-12', '-9', '-1', '0', '1', '7', '9', '10', '12', '99', '100', '120', '999', '1000', '123456789012345678901234567890'];
const BOUNDS = ['-1000', '-120', '-12', '-10', '-1', '0', '1', '9', '10', '12', '99', '100', '1000', '99999999999999999999999999999999'];

const numeric: Record<RangeOperator, (left: bigint, right: bigint) => boolean> = {
  gt: (left, right) => left > right,
  gte: (left, right) => left >= right,
  lt: (left, right) => left < right,
  lte: (left, right) => left <= right,
};

let root: string;
let store: Store;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-bigint-'));
  store = await openStore({ client: 'embedded', options: {} }, join(root, 'data'));
  await store.collection('ledgers').insertMany([...VALUES.map((big, index) => ({ id: index + 1, documentId: `d${index}`, big })), { id: 100, documentId: 'none', big: null }]);
});
afterAll(async () => {
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

const found = async (filter: Filter): Promise<string[]> => (await store.collection('ledgers').find(filter, { sort: [['id', 1]] })).map((row) => row.big as string);

test.each(['gt', 'gte', 'lt', 'lte'] as RangeOperator[])('%s against every bound matches BigInt comparison', async (operator) => {
  for (const bound of BOUNDS) {
    const expected = VALUES.filter((value) => numeric[operator](BigInt(value), BigInt(bound)));
    expect({ bound, found: await found(bigintRange('big', operator, bound)) }).toEqual({ bound, found: expected });
  }
});

test('big integers are stored in one spelling per number', () => {
  expect(coerceScalar({ type: 'biginteger', localized: false }, '007')).toEqual({ ok: true, value: '7' });
  expect(coerceScalar({ type: 'biginteger', localized: false }, '-0')).toEqual({ ok: true, value: '0' });
  expect(coerceScalar({ type: 'biginteger', localized: false }, 42)).toEqual({ ok: true, value: '42' });
});

test('the filter translator uses numeric ranges for biginteger attributes, between included', async () => {
  const schemaDir = join(root, 'schema');
  writeOneTypeSchema(schemaDir, 'ledger', 'ledgers', { big: { type: 'biginteger' } });
  const models = loadModels(schemaDir);
  const translator = createFilterTranslator({ models, maxStringLength: 100, maxDepth: 8, lookup: async () => [] });
  const ledger = models.contentTypes.get('api::ledger.ledger')!;
  const through = async (filters: unknown) => found(await translator.translate(ledger, filters));
  expect(await through({ big: { gt: '99' } })).toEqual(['100', '120', '999', '1000', '123456789012345678901234567890']);
  expect(await through({ big: { between: [-12, '0010'] } })).toEqual(['-12', '-9', '-1', '0', '1', '7', '9', '10']);
  expect(await through({ big: { lt: 0 }, or: [{ big: { eq: '-1' } }, { big: { lte: '-999' } }] })).toEqual(['-1000', '-999', '-1']);
  await expect(translator.translate(ledger, { big: { gt: 'ten' } })).rejects.toThrow(/must be an integer/);
});
