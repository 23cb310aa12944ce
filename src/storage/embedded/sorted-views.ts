import type { SortSpec, StoredDocument } from '../types';
import { insertionPoint, sortEntries } from './sort-documents';

/** Distinct sorts kept per collection; the least recently built is dropped past this. */
const MAX_VIEWS = 8;
// each changed document costs a binary search and a splice (a move of the keys after it): past this many,
// one full sort is cheaper
const MAX_PATCHED_CHANGES = 64;

interface SortedView {
  sort: SortSpec;
  keys: number[];
  /** keys written since `keys` was last brought up to date */
  changed: Set<number>;
}

/**
 * A collection's documents kept in the order of the sorts reads ask for, so that a sorted page scans from the
 * front and stops when it is full instead of sorting every match. A write does not throw a view away: the
 * changed documents are moved to their place on the next read, which costs a pass over the keys instead of a
 * full sort (a few hundred milliseconds at 100,000 documents); past a few dozen changes a full sort is done.
 */
export interface SortedViews {
  /** internal keys of every document in `sort` order, ties in key order */
  view(sort: SortSpec): readonly number[];
  changed(key: number): void;
}

export function createSortedViews(documents: ReadonlyMap<number, StoredDocument>): SortedViews {
  const views = new Map<string, SortedView>();

  function bringUpToDate(view: SortedView): void {
    if (view.changed.size === 0) return;
    if (view.changed.size > MAX_PATCHED_CHANGES) {
      view.keys = sortEntries(documents, view.sort);
    } else {
      const keys = view.keys.filter((key) => !view.changed.has(key));
      for (const key of view.changed) {
        const document = documents.get(key);
        if (document) keys.splice(insertionPoint(keys, documents, key, document, view.sort), 0, key);
      }
      view.keys = keys;
    }
    view.changed.clear();
  }

  return {
    view(sort) {
      const cacheKey = JSON.stringify(sort);
      let view = views.get(cacheKey);
      if (!view) {
        view = { sort, keys: sortEntries(documents, sort), changed: new Set() };
        if (views.size >= MAX_VIEWS) views.delete(views.keys().next().value as string);
        views.set(cacheKey, view);
      }
      bringUpToDate(view);
      return view.keys;
    },
    changed(key) {
      for (const view of views.values()) view.changed.add(key);
    },
  };
}
