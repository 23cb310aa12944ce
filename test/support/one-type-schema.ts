import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A schema folder in Strapi's layout holding one collection type (no draft & publish), for tests that need an attribute the example models lack. */
export const writeOneTypeSchema = (schemaDir: string, singular: string, plural: string, attributes: Record<string, unknown>): void => {
  const typeDir = join(schemaDir, 'api', singular, 'content-types', singular);
  mkdirSync(typeDir, { recursive: true });
  writeFileSync(
    join(typeDir, 'schema.json'),
    JSON.stringify({
      kind: 'collectionType',
      collectionName: plural,
      info: { singularName: singular, pluralName: plural, displayName: singular },
      options: { draftAndPublish: false },
      attributes,
    }),
  );
};
