import type { RelationAttribute } from '../models/types';

/**
 * Strapi's relation write forms, normalised: a documentId, an array of documentIds (set),
 * or `{ connect, disconnect, set }` whose items are documentIds or `{ documentId, position }`.
 * As in Strapi, an entity's numeric id may stand for its document (`3`, `{ id: 3 }`): the
 * write looks those up (resolveIds) before the change is applied.
 */

export type Position = { before: string } | { after: string } | { start: true } | { end: true };

/** A related document as a write names it: a documentId, or a numeric id still to look up. */
export type RelationRef = string | number;

export interface ConnectItem<Ref extends RelationRef = string> {
  documentId: Ref;
  position?: Position;
}

export type RelationChange<Ref extends RelationRef = string> =
  | { kind: 'set'; items: Ref[] }
  | { kind: 'patch'; connect: ConnectItem<Ref>[]; disconnect: Ref[] };

export type ParsedRelation = { ok: true; change: RelationChange<RelationRef> } | { ok: false; message: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isEntityId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

const parseId = (value: unknown): RelationRef | undefined => {
  if (typeof value === 'string' && value.length > 0 && value.length <= 64) return value;
  if (isEntityId(value)) return value;
  if (isObject(value) && typeof value.documentId === 'string') return value.documentId;
  if (isObject(value) && value.documentId === undefined && isEntityId(value.id)) return value.id;
  return undefined;
};

const parsePosition = (value: unknown): Position | undefined | false => {
  if (value === undefined) return undefined;
  if (!isObject(value)) return false;
  if (typeof value.before === 'string') return { before: value.before };
  if (typeof value.after === 'string') return { after: value.after };
  if (value.start === true) return { start: true };
  if (value.end === true) return { end: true };
  return false;
};

const parseList = (value: unknown): RelationRef[] | undefined => {
  const list = Array.isArray(value) ? value : [value];
  const ids = list.map(parseId);
  return ids.every((id): id is RelationRef => id !== undefined) ? ids : undefined;
};

const parseConnect = (value: unknown): ConnectItem<RelationRef>[] | undefined => {
  const list = Array.isArray(value) ? value : [value];
  const items: ConnectItem<RelationRef>[] = [];
  for (const entry of list) {
    const documentId = parseId(entry);
    const position = isObject(entry) ? parsePosition(entry.position) : undefined;
    if (documentId === undefined || position === false) return undefined;
    items.push(position ? { documentId, position } : { documentId });
  }
  return items;
};

const CHANGE_KEYS = new Set(['connect', 'disconnect', 'set']);

export const parseRelationInput = (attribute: RelationAttribute, value: unknown): ParsedRelation => {
  const toMany = attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany';
  if (value === null) return { ok: true, change: { kind: 'set', items: [] } };
  if (isObject(value) && Object.keys(value).some((key) => CHANGE_KEYS.has(key))) {
    const unknown = Object.keys(value).find((key) => !CHANGE_KEYS.has(key));
    if (unknown) return { ok: false, message: `unknown relation key "${unknown}" (expected connect, disconnect or set)` };
    if (value.set !== undefined) {
      const items = parseList(value.set);
      return items ? { ok: true, change: { kind: 'set', items } } : { ok: false, message: '`set` must list documentIds' };
    }
    const connect = value.connect === undefined ? [] : parseConnect(value.connect);
    const disconnect = value.disconnect === undefined ? [] : parseList(value.disconnect);
    if (!connect) return { ok: false, message: '`connect` must list documentIds or { documentId, position }' };
    if (!disconnect) return { ok: false, message: '`disconnect` must list documentIds' };
    if (!toMany && connect.length > 1) return { ok: false, message: 'a to-one relation can connect one document only' };
    return { ok: true, change: { kind: 'patch', connect, disconnect } };
  }
  const one = toMany ? undefined : parseId(value);
  const items = toMany ? parseList(value) : one !== undefined ? [one] : undefined;
  if (!items) return { ok: false, message: toMany ? 'must be an array of documentIds' : 'must be a documentId' };
  return { ok: true, change: { kind: 'set', items } };
};

/** The numeric ids a change names, to look up. */
export const entityIdsOf = (change: RelationChange<RelationRef>): number[] => {
  const refs = change.kind === 'set' ? change.items : [...change.connect.map((item) => item.documentId), ...change.disconnect];
  return [...new Set(refs.filter((ref): ref is number => typeof ref === 'number'))];
};

/** The change with numeric ids replaced by their documentIds; the first id that names nothing, if one does. */
export const resolveIds = (change: RelationChange<RelationRef>, documentIds: ReadonlyMap<number, string>): RelationChange | { missing: number } => {
  const missing = entityIdsOf(change).find((id) => !documentIds.has(id));
  if (missing !== undefined) return { missing };
  const resolve = (ref: RelationRef): string => (typeof ref === 'number' ? (documentIds.get(ref) as string) : ref);
  return change.kind === 'set'
    ? { kind: 'set', items: change.items.map(resolve) }
    : { kind: 'patch', connect: change.connect.map((item) => ({ ...item, documentId: resolve(item.documentId) })), disconnect: change.disconnect.map(resolve) };
};

/** Applies a change to the current ordered list of documentIds. */
export const applyRelationChange = (current: string[], change: RelationChange): string[] => {
  if (change.kind === 'set') return [...new Set(change.items)];
  const removed = new Set([...change.disconnect, ...change.connect.map((item) => item.documentId)]);
  const result = current.filter((id) => !removed.has(id));
  for (const { documentId, position } of change.connect) {
    const anchor = position && 'before' in position ? result.indexOf(position.before) : position && 'after' in position ? result.indexOf(position.after) : -1;
    if (position && 'start' in position) result.unshift(documentId);
    else if (position && 'before' in position && anchor >= 0) result.splice(anchor, 0, documentId);
    else if (position && 'after' in position && anchor >= 0) result.splice(anchor + 1, 0, documentId);
    else result.push(documentId);
  }
  return result;
};

/** documentIds that must exist for the change to be valid. */
export const referencedIds = (change: RelationChange): string[] =>
  change.kind === 'set' ? change.items : change.connect.map((item) => item.documentId);
