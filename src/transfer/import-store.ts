import { createInterface } from 'node:readline';
import type { Collection, StoredDocument, Store } from '../storage/types';
import { FORMAT, VERSION, type TransferLine, type TransferProgress, type TransferSummary } from './transfer-format';

const BATCH_SIZE = 500;

export interface ImportOptions {
  /** empty each imported collection first; without it, importing into a collection that holds documents fails */
  replace?: boolean;
}

function parseLine(text: string, lineNumber: number): TransferLine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`line ${lineNumber} of the export is not JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`line ${lineNumber} of the export is not an object`);
  return parsed as TransferLine;
}

/**
 * Reads an export (transfer-format.ts) into `store` line by line, holding one batch of documents in memory:
 * recreates each collection's indexes, then inserts its documents. Stops at the first error; what was
 * imported until then stays (import again with `replace`).
 */
export async function importStore(
  store: Store,
  input: NodeJS.ReadableStream,
  onProgress?: TransferProgress,
  options: ImportOptions = {},
): Promise<TransferSummary> {
  const summary: TransferSummary = { collections: 0, documents: 0 };
  let current: { collection: Collection; count: number } | undefined;
  let pending: StoredDocument[] = [];
  let headerSeen = false;
  let ended = false;
  let lineNumber = 0;

  async function flush(): Promise<void> {
    if (!current || pending.length === 0) return;
    await current.collection.insertMany(pending);
    current.count += pending.length;
    summary.documents += pending.length;
    pending = [];
    onProgress?.(current.collection.name, current.count);
  }

  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    lineNumber += 1;
    if (text.trim() === '') continue;
    const line = parseLine(text, lineNumber);
    if (ended) throw new Error(`line ${lineNumber}: data after the end of the export`);
    if (!headerSeen) {
      if (!('format' in line) || line.format !== FORMAT) throw new Error('not a Folio export: the first line must be its header');
      if (line.version !== VERSION) throw new Error(`export format version ${line.version} is not supported (expected ${VERSION})`);
      headerSeen = true;
    } else if ('collection' in line) {
      await flush();
      const collection = store.collection(line.collection);
      if (options.replace) await collection.deleteMany({});
      else if ((await collection.countDocuments({})) > 0) {
        throw new Error(`collection ${line.collection} already holds documents: import into an empty store, or replace`);
      }
      for (const index of line.indexes) await collection.createIndex(index);
      current = { collection, count: 0 };
      summary.collections += 1;
    } else if ('document' in line) {
      if (!current) throw new Error(`line ${lineNumber}: a document before any collection header`);
      pending.push(line.document);
      if (pending.length >= BATCH_SIZE) await flush();
    } else if ('end' in line) {
      await flush();
      if (line.documents !== summary.documents || line.collections !== summary.collections) {
        throw new Error(`the export announces ${line.documents} documents in ${line.collections} collections, ${summary.documents} in ${summary.collections} were read`);
      }
      ended = true;
    } else {
      throw new Error(`line ${lineNumber}: unknown line ${text.slice(0, 80)}`);
    }
  }
  if (!headerSeen) throw new Error('the export is empty');
  if (!ended) throw new Error('the export is truncated: its end line is missing (documents read so far were imported)');
  return summary;
}
