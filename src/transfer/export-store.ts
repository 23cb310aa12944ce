import { once } from 'node:events';
import type { Store } from '../storage/types';
import { FORMAT, VERSION, type TransferLine, type TransferProgress, type TransferSummary } from './transfer-format';

const BATCH_SIZE = 500;

async function writeLine(output: NodeJS.WritableStream, line: TransferLine): Promise<void> {
  // honour backpressure so a large collection never piles up in the stream's buffer
  if (!output.write(`${JSON.stringify(line)}\n`)) await once(output, 'drain');
}

/**
 * Writes every collection of `store` (documents, index definitions and, through `folio_sequences`, the
 * counters) to `output` in the format of transfer-format.ts, one batch of documents in memory at a time.
 * `output` is left open. Writes made during the export may or may not be included.
 */
export async function exportStore(store: Store, output: NodeJS.WritableStream, onProgress?: TransferProgress): Promise<TransferSummary> {
  const summary: TransferSummary = { collections: 0, documents: 0 };
  await writeLine(output, { format: FORMAT, version: VERSION, engine: store.engine });
  for (const name of (await store.listCollections()).sort()) {
    const collection = store.collection(name);
    await writeLine(output, { collection: name, indexes: await collection.listIndexes() });
    let count = 0;
    for await (const batch of collection.findInBatches({}, BATCH_SIZE)) {
      for (const document of batch) await writeLine(output, { document });
      count += batch.length;
      onProgress?.(name, count);
    }
    summary.collections += 1;
    summary.documents += count;
  }
  await writeLine(output, { end: true, ...summary });
  return summary;
}
