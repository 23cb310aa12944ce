/**
 * A bounded map that forgets the least recently used entry first (a Map keeps insertion order).
 * Bounded by entries, and optionally by weight (`weigh`, e.g. the bytes of a key): an entry
 * heavier than `maxEntryWeight` is not kept at all, so no single client can fill the cache.
 */

export interface LruOptions<V> {
  maxEntries: number;
  maxWeight?: number;
  maxEntryWeight?: number;
  weigh?: (key: string, value: V) => number;
}

export const createLruCache = <V>(options: LruOptions<V> | number) => {
  const { maxEntries, maxWeight = Infinity, maxEntryWeight = maxWeight, weigh = () => 0 } = typeof options === 'number' ? { maxEntries: options } : options;
  const entries = new Map<string, { value: V; weight: number }>();
  let total = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    total -= entry.weight;
  };
  return {
    get(key: string): V | undefined {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key: string, value: V): void {
      remove(key);
      const weight = weigh(key, value);
      if (weight > maxEntryWeight) return;
      entries.set(key, { value, weight });
      total += weight;
      while (entries.size > maxEntries || total > maxWeight) remove(entries.keys().next().value as string);
    },
    get size() {
      return entries.size;
    },
    get weight() {
      return total;
    },
  };
};
