/** A bounded map that forgets the least recently used entry first (a Map keeps insertion order). */
export const createLruCache = <V>(capacity: number) => {
  const entries = new Map<string, V>();
  return {
    get(key: string): V | undefined {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    set(key: string, value: V): void {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > capacity) entries.delete(entries.keys().next().value as string);
    },
    get size() {
      return entries.size;
    },
  };
};

export type LruCache<V> = ReturnType<typeof createLruCache<V>>;
