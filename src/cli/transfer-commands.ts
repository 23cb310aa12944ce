import { createReadStream, createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { loadConfig } from '../config/load-config';
import { openStore } from '../storage/open-store';
import { exportStore } from '../transfer/export-store';
import { importStore } from '../transfer/import-store';
import type { Store } from '../storage/types';

/**
 * `folio export` / `folio import`: every collection as newline-delimited JSON, so a project can
 * move between the embedded store and MongoDB. Data goes to stdout (or --file); progress to stderr.
 */

export interface TransferFlags {
  configDir: string;
  dataDir: string;
  file?: string;
  replace?: boolean;
}

const progress = () => {
  let last = '';
  return (collection: string, count: number) => {
    const line = `${collection}: ${count}`;
    if (line !== last) process.stderr.write(`${line}\n`);
    last = line;
  };
};

const withStore = async <T>(flags: TransferFlags, work: (store: Store) => Promise<T>): Promise<T> => {
  const config = loadConfig({ configDir: flags.configDir, env: process.env });
  const store = await openStore(config.database, flags.dataDir);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
};

export const exportCommand = (flags: TransferFlags) =>
  withStore(flags, async (store) => {
    const output = flags.file ? createWriteStream(flags.file) : process.stdout;
    const summary = await exportStore(store, output, progress());
    if (flags.file) {
      output.end();
      await finished(output);
    }
    process.stderr.write(`exported ${summary.documents} documents from ${summary.collections} collections\n`);
  });

export const importCommand = (flags: TransferFlags) =>
  withStore(flags, async (store) => {
    const input = flags.file ? createReadStream(flags.file) : process.stdin;
    const summary = await importStore(store, input, progress(), { replace: flags.replace });
    process.stderr.write(`imported ${summary.documents} documents into ${summary.collections} collections\n`);
  });
