import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Services } from '../context';
import type { Status } from '../documents/scope';

/**
 * A first start that shows something: a schema folder may hold `examples.json`, documents to create in
 * an empty store (Folio's example models do), so a newcomer's first request returns content. Done once
 * per store: a marker records that the question was settled, seeded or not, so a store emptied later
 * stays empty. Documents are made by the document service, as any write: relations checked, events recorded.
 */

export const EXAMPLES_FILE = 'examples.json';
const MARKER_COLLECTION = 'folio_examples';

interface ExampleDocument {
  uid: string;
  documentId: string;
  status?: Status;
  locale?: string;
  data: Record<string, unknown>;
}

const readExamples = (file: string): ExampleDocument[] => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
  const documents = (parsed as { documents?: unknown }).documents;
  if (!Array.isArray(documents)) throw new Error(`${file}: must hold { "documents": [ { "uid", "documentId", "data" }, … ] }`);
  return documents as ExampleDocument[];
};

/** The number of documents created: 0 when there is no examples file, the store holds content, or it was settled before. */
export const seedExamples = async ({ store, models, documents, config }: Services, schemaDir: string): Promise<number> => {
  const file = join(schemaDir, EXAMPLES_FILE);
  if (!existsSync(file)) return 0;
  const marker = store.collection(MARKER_COLLECTION);
  if ((await marker.countDocuments({})) > 0) return 0;
  const examples = readExamples(file);
  // the project's own content types: roles are made at every start, and users may have signed up
  const contentTypes = [...models.contentTypes.values()].filter((contentType) => contentType.uid.startsWith('api::'));
  const counts = await Promise.all(contentTypes.map((contentType) => store.collection(contentType.collectionName).countDocuments({})));
  const empty = counts.every((count) => count === 0);
  if (empty) {
    for (const example of examples) {
      const contentType = models.contentTypes.get(example.uid);
      if (!contentType) throw new Error(`${file}: no content type ${example.uid} in ${schemaDir}`);
      const scope = { status: example.status ?? 'published', locale: contentType.localized ? (example.locale ?? config.i18n.defaultLocale) : undefined };
      await documents.create(contentType, example.data, scope, example.documentId);
    }
  }
  await marker.insertOne({ id: 1, examples: empty ? examples.length : 0, settledAt: new Date().toISOString() });
  return empty ? examples.length : 0;
};
