import type { RelationAttribute } from '../models/types';

/**
 * Strapi's relation write forms, normalised: a documentId, an array of documentIds (set),
 * or `{ connect, disconnect, set }` whose items are documentIds or `{ documentId, position }`.
 */

export type Position = { before: string } | { after: string } | { start: true } | { end: true };

export interface ConnectItem {
  documentId: string;
  position?: Position;
}

export type RelationChange =
  | { kind: 'set'; items: string[] }
  | { kind: 'patch'; connect: ConnectItem[]; disconnect: string[] };

export type ParsedRelation = { ok: true; change: RelationChange } | { ok: false; message: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const parseId = (value: unknown): string | undefined => {
  if (typeof value === 'string' && value.length > 0 && value.length <= 64) return value;
  if (isObject(value) && typeof value.documentId === 'string') return value.documentId;
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

const parseList = (value: unknown): string[] | undefined => {
  const list = Array.isArray(value) ? value : [value];
  const ids = list.map(parseId);
  return ids.every((id): id is string => id !== undefined) ? ids : undefined;
};

const parseConnect = (value: unknown): ConnectItem[] | undefined => {
  const list = Array.isArray(value) ? value : [value];
  const items: ConnectItem[] = [];
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
  const items = toMany ? parseList(value) : parseId(value) !== undefined ? [parseId(value) as string] : undefined;
  if (!items) return { ok: false, message: toMany ? 'must be an array of documentIds' : 'must be a documentId' };
  return { ok: true, change: { kind: 'set', items } };
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
