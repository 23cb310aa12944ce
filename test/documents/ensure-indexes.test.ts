import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureIndexes } from '../../src/documents/ensure-indexes';
import { loadModels } from '../../src/models/load-models';
import { openStore } from '../../src/storage/open-store';
import type { Store } from '../../src/storage/types';
import { copyExampleSchema, type SchemaCopy } from '../support/schema-copy';

describe('indexes declared at start', () => {
  let schema: SchemaCopy;
  let dataDir: string;
  let store: Store;

  beforeEach(async () => {
    schema = copyExampleSchema();
    dataDir = mkdtempSync(join(tmpdir(), 'folio-indexes-'));
    store = await openStore({ client: 'embedded' }, dataDir);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    schema.remove();
  });

  const indexNames = async (pluginOptions?: unknown): Promise<string[]> => {
    if (pluginOptions) schema.editContentType('article', (model) => Object.assign(model, { pluginOptions }));
    await ensureIndexes(loadModels(schema.schemaDir), store);
    return (await store.collection('articles').listIndexes()).map((index) => index.name ?? '').sort();
  };

  test('by default: short scalars led by the read scope, text attributes for substring search, relations', async () => {
    const names = await indexNames();
    expect(names).toEqual(expect.arrayContaining(['_status_1_locale_1_category_1_id_1', 'title_text', 'documentId_1_locale_1__status_1']));
    expect(names.some((name) => name.startsWith('_status_1_locale_1_views_1_id_1'))).toBe(true);
    expect(names).not.toContain('_status_1_locale_1_content_1_id_1');
  });

  test('the index of a number or date carries the group keys and numbers an aggregation reads beside it', async () => {
    await ensureIndexes(loadModels(schema.schemaDir), store);
    const indexes = await store.collection('articles').listIndexes();
    const keysOf = (start: string) => indexes.find((index) => index.keys[2]?.[0] === start && index.keys[0][0] === '_status')?.keys.map(([field]) => field);
    const carried = ['featured', 'rating', 'kind', 'category', 'author'];
    // to-one relations, enumerations, booleans and numbers; not to-many relations (tags), texts or itself
    expect(keysOf('views')).toEqual(['_status', 'locale', 'views', 'id', ...carried]);
    expect(keysOf('createdAt')).toEqual(['_status', 'locale', 'createdAt', 'id', 'featured', 'views', 'rating', 'kind', 'category', 'author']);
    // a group key's own index is not widened: grouped without a range, it reads the key alone
    expect(keysOf('category')).toEqual(['_status', 'locale', 'category', 'id']);
    // the plain index each replaced is gone
    expect(indexes.map((index) => index.name)).not.toContain('_status_1_locale_1_views_1_id_1');
  });

  test('pluginOptions.folio replaces the defaults, keeping the structural ones', async () => {
    const names = await indexNames({ i18n: { localized: true }, folio: { indexed: ['views'], searchable: [] } });
    expect(names.some((name) => name.startsWith('_status_1_locale_1_views_1_id_1'))).toBe(true);
    expect(names).toContain('_status_1_locale_1_category_1_id_1');
    expect(names).not.toContain('title_text');
    expect(names).not.toContain('_status_1_locale_1_title_1_id_1');
  });

  test('an unknown attribute or option stops loading with the file named', () => {
    schema.editContentType('article', (model) => Object.assign(model, { pluginOptions: { folio: { indexed: ['veiws'], text: [] } } }));
    expect(() => loadModels(schema.schemaDir)).toThrow(/article\/schema\.json[\s\S]*pluginOptions\.folio\.indexed names "veiws", not attributes[\s\S]*pluginOptions\.folio\.text is not an option/);
  });
});
