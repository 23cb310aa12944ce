import type { StoredDocument, StoredValue, UpdateSpec } from '../types';
import { cloneDocument } from '../clone-document';
import { assertSafeUpdate } from '../update-spec';

type Container = StoredDocument | StoredValue[];

function isContainer(value: StoredValue | undefined): value is Container {
  return typeof value === 'object' && value !== null;
}

function readChild(container: Container, segment: string): StoredValue | undefined {
  if (Array.isArray(container)) return /^\d+$/.test(segment) ? container[Number(segment)] : undefined;
  return Object.hasOwn(container, segment) ? container[segment] : undefined;
}

function writeChild(container: Container, segment: string, value: StoredValue | undefined, path: string): void {
  if (Array.isArray(container)) {
    if (!/^\d+$/.test(segment)) throw new TypeError(`cannot address array element ${segment} in ${path}`);
    const index = Number(segment);
    if (value === undefined) {
      if (index < container.length) container[index] = null;
      return;
    }
    while (container.length < index) container.push(null);
    container[index] = value;
  } else if (value === undefined) delete container[segment];
  else container[segment] = value;
}

function shallowCopy(container: Container): Container {
  return Array.isArray(container) ? container.slice() : { ...container };
}

/**
 * Copy-on-write along a dotted path: only the containers on the path are copied, the rest is shared with the
 * previous version, which stays untouched (the undo log of a transaction keeps it).
 */
function setPath(root: StoredDocument, path: string, value: StoredValue | undefined): void {
  const segments = path.split('.');
  let container: Container = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const child = readChild(container, segments[i]);
    if (child === undefined || child === null) {
      if (value === undefined) return;
      const created: StoredDocument = {};
      writeChild(container, segments[i], created, path);
      container = created;
    } else if (isContainer(child)) {
      const copy = shallowCopy(child);
      writeChild(container, segments[i], copy, path);
      container = copy;
    } else if (value === undefined) return;
    else throw new TypeError(`cannot set ${path}: ${segments.slice(0, i + 1).join('.')} is not an object`);
  }
  writeChild(container, segments[segments.length - 1], value, path);
}

/** A validated update whose `$set` values are a private copy, ready for applyUpdate on any number of documents. */
export function prepareUpdate(update: UpdateSpec): Required<UpdateSpec> {
  assertSafeUpdate(update);
  return { $set: update.$set ? cloneDocument(update.$set) : {}, $unset: [...(update.$unset ?? [])] };
}

/**
 * The document after `$set` (dotted paths create missing objects) then `$unset`; `document` is not modified.
 * Documents may share the prepared values: stored documents are never mutated in place.
 */
export function applyUpdate(document: StoredDocument, update: Required<UpdateSpec>): StoredDocument {
  const next: StoredDocument = { ...document };
  for (const path of Object.keys(update.$set)) setPath(next, path, update.$set[path]);
  for (const path of update.$unset) setPath(next, path, undefined);
  return next;
}
