import Database, { type Database as SqliteDatabase } from 'better-sqlite3';
import { registerFunctions } from './sql-functions';

/**
 * A connection besides the writing one, which reads the last commit (a reader thread's, the main thread's for
 * reads outside another caller's open transaction): a page cache of its own (16 MB) and Folio's SQL functions.
 */
export const openReadConnection = (file: string, options: { readonly?: boolean } = {}): SqliteDatabase => {
  const connection = new Database(file, { ...options, fileMustExist: true });
  connection.pragma('cache_size = -16384');
  registerFunctions(connection);
  return connection;
};
