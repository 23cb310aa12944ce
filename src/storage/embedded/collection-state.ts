import type { NormalizedIndexSpec } from '../index-spec';
import type { CollectionTables } from './compile-filter';
import { KIND, type PathKinds } from './path-kinds';
import { createCountCache, type CountCache } from './count-cache';

/** What the engine knows about one collection besides its rows; reloaded from the catalog after a rollback. */
export interface CollectionState extends PathKinds {
  readonly name: string;
  readonly tables: CollectionTables;
  /** whether its tables exist */
  created: boolean;
  indexes: NormalizedIndexSpec[];
  /** paths with a trigram index, by slot */
  textPaths: string[];
  kinds: Map<string, number>;
  /** totals by filter, kept exact by every write, and the writes' numbers */
  counts: CountCache;
  textSlot(path: string): number | undefined;
  /** top-level fields with multikey entries: those that have held an array */
  multikeyFields(): string[];
}

/** `generation`: the number of the collection's last write, as the database keeps it */
export function createCollectionState(name: string, generation: number): CollectionState {
  return {
    name,
    tables: { docs: `c:${name}`, multikey: `m:${name}`, text: `t:${name}` },
    created: false,
    indexes: [],
    textPaths: [],
    kinds: new Map(),
    counts: createCountCache(generation),
    of(path) {
      return this.kinds.get(path) ?? 0;
    },
    textSlot(path) {
      const slot = this.textPaths.indexOf(path);
      return slot < 0 ? undefined : slot;
    },
    multikeyFields() {
      const fields: string[] = [];
      for (const [path, kinds] of this.kinds) if (kinds & KIND.array && !path.includes('.')) fields.push(path);
      return fields;
    },
  };
}
