import type { NormalizedIndexSpec } from '../index-spec';
import type { CollectionTables, TextIndex } from './compile-filter';
import { KIND, type PathKinds } from './path-kinds';
import { createCountCache, type CountCache } from './count-cache';
import { createHeldRows, type HeldRows } from './held-rows';

/** What the engine knows about one collection besides its rows; reloaded from the catalog after a rollback. */
export interface CollectionState extends PathKinds {
  readonly name: string;
  readonly tables: CollectionTables;
  /** whether its tables exist */
  created: boolean;
  indexes: NormalizedIndexSpec[];
  /** paths with a trigram index, by slot */
  textPaths: string[];
  /** by slot of a partitioned trigram index: the number of each partition (the JSON of its fields' values) */
  partitions: Map<number, Map<string, number>>;
  kinds: Map<string, number>;
  /**
   * Fields of a unique index whose values are numbers ascending with the row key, as `id` is (assigned and
   * inserted in one transaction): a sort on one is the rows' key order. By field: the value of the last row
   * inserted (null before any), which the next one must exceed.
   */
  ascending: Map<string, number | null>;
  /** totals by filter, kept exact by every write, and the writes' numbers */
  counts: CountCache;
  /** totals being counted outside a transaction, by key: a request asking for one of them waits for it (read-totals' count) */
  counting: Map<string, Promise<number>>;
  /** its rows in memory, as of a commit, while it is small and read often */
  held: HeldRows;
  textIndex(path: string): TextIndex | undefined;
  /** the fields that split the trigram index of `slot`, when they do */
  partitionOf(slot: number): string[] | undefined;
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
    partitions: new Map(),
    kinds: new Map(),
    ascending: new Map(),
    counts: createCountCache(generation),
    counting: new Map(),
    held: createHeldRows(),
    of(path) {
      return this.kinds.get(path) ?? 0;
    },
    textIndex(path) {
      const slot = this.textPaths.indexOf(path);
      if (slot < 0) return undefined;
      const partition = this.partitionOf(slot);
      if (!partition) return { slot };
      const numbers = this.partitions.get(slot);
      return { slot, partition, partitionNumber: (value) => numbers?.get(value) };
    },
    partitionOf(slot) {
      const path = this.textPaths[slot];
      return this.indexes.find((index) => index.text && index.keys[0][0] === path)?.partition;
    },
    multikeyFields() {
      const fields: string[] = [];
      for (const [path, kinds] of this.kinds) if (kinds & KIND.array && !path.includes('.')) fields.push(path);
      return fields;
    },
  };
}
