import { readFileSync } from 'node:fs';
import { OUTPUT, TEMPLATE, renderConfigurationDocs } from '../../scripts/config-docs';

/** docs/configuration.md is written from the config schemas: a key added, renamed or re-described there shows here. */

test('docs/configuration.md is what `npm run docs:config` writes from the schemas', () => {
  const expected = renderConfigurationDocs(readFileSync(TEMPLATE, 'utf8'));
  const written = readFileSync(OUTPUT, 'utf8');
  if (written !== expected) {
    const line = written.split('\n').findIndex((text, index) => text !== expected.split('\n')[index]);
    throw new Error(`docs/configuration.md is stale from line ${line + 1}: run npm run docs:config (edit scripts/configuration.template.md or src/config/file-schemas.ts, not the file)`);
  }
});

test('every key of every config file is in the tables, with its type', () => {
  const written = readFileSync(OUTPUT, 'utf8');
  for (const row of ['| `rest.maxPopulateDepth` | integer ≥ 1 | `10` |', '| `apiTokens[].name` | string | required |', '| `[].events` | non-empty array of one of "entry.create"']) {
    expect(written).toContain(row);
  }
});
