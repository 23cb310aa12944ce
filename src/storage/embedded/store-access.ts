import type { EmbeddedStoreAccess } from './collection-read';
import { callerInTransaction, open, type StoreState } from './store-state';
import { write } from './write-lock';

const readersSeeCatalog = (store: StoreState): boolean => !callerInTransaction(store) && !store.database.catalogAhead();

export function storeAccess(store: StoreState, holdAfterReads: number): EmbeddedStoreAccess {
  return {
    holdAfterReads,
    database: () => open(store),
    readers: () => store.readers,
    inTransaction: () => callerInTransaction(store),
    readersSeeCatalog: () => readersSeeCatalog(store),
    statementHere(sql) {
      const opened = open(store);
      return opened.sqlite.inTransaction && readersSeeCatalog(store) ? opened.committedStatement(sql) : opened.statement(sql);
    },
    write: (apply) => write(store, apply),
  };
}
