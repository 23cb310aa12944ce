import type { Attribute, Component, ComponentAttribute, DynamicZoneAttribute, MediaAttribute, Models, MorphAttribute, RelationAttribute } from '../models/types';
import type { StoredDocument, StoredValue } from '../storage/types';
import type { ValidationIssue } from '../errors/graphql-errors';
import { componentTypeName } from '../sdl/naming';
import { hashPassword } from './password-hash';
import { bigintSortField, bigintSortValue } from './bigint-sort-key';
import { coerceScalar } from './coerce-scalar';
import { applyRelationChange, entityIdsOf, parseRelationInput, resolveIds, type RelationChange } from './relation-input';
import { attributePathOf, ownedComponentIds, type OwnedComponentIds } from './component-ids';
import { yupPath } from './validation-paths';

/**
 * Converts incoming attribute values, already validated against the attribute options
 * (entity-validator.ts), to their stored form, refusing what cannot be stored: unknown attributes,
 * relations, media and component ids that name nothing, values of a form their type cannot hold.
 * Relations are returned as changes for the writer to apply; media ids for it to check.
 */

export interface PrepareContext {
  models: Models;
  nextComponentId(): Promise<number>;
  /** the documentIds of the target's entities with these numeric ids (a relation may name them so) */
  documentIdsOf(target: string, ids: number[]): Promise<Map<number, string>>;
}

export interface RelationWrite {
  name: string;
  attribute: RelationAttribute;
  change: RelationChange;
}

export interface Prepared {
  values: StoredDocument;
  /** relations of the document itself, for the writer to store (and carry to inverse sides) */
  relations: RelationWrite[];
  /** relations already stored in the values (inside components, polymorphic ones): their references remain to be checked */
  storedReferences: RelationWrite[];
  mediaIds: number[];
  issues: ValidationIssue[];
}

type Mode = 'create' | 'update';

/** One preparation: what it found, and which component ids it may keep (an update's, from the stored document). */
interface Run extends Prepared {
  owned?: OwnedComponentIds;
  usedComponentIds: Set<number>;
}

/** What a preparer's steps share: its context, and the models' components by uid and by GraphQL type name (a zone's entry names either). */
interface Preparer {
  readonly context: PrepareContext;
  readonly componentByName: Map<string, Component>;
}

const issue = (path: string[], message: string, value?: unknown): ValidationIssue => ({
  path,
  message: `${yupPath(path)} ${message}`,
  name: 'ValidationError',
  ...(value === undefined ? {} : { value }),
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const asIdList = (value: StoredValue | undefined): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : typeof value === 'string' ? [value] : [];

/**
 * A relation inside a component is stored in the component, as the document stores its own: the
 * documentIds, in order. A change applies to the relation the kept component held, if any.
 */
const embeddedRelationValue = (attribute: RelationAttribute, change: RelationChange, held: StoredValue | undefined): StoredValue => {
  const next = applyRelationChange(asIdList(held), change);
  return attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany' ? next : (next[next.length - 1] ?? null);
};

const parseMediaId = (value: unknown): number | undefined => {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
};

function componentOf({ context }: Preparer, uid: string): Component {
  const component = context.models.components.get(uid);
  if (!component) throw new Error(`unknown component ${uid}`);
  return component;
}

function componentsByName(models: Models): Map<string, Component> {
  const componentByName = new Map<string, Component>();
  for (const component of models.components.values()) {
    componentByName.set(component.uid, component);
    componentByName.set(componentTypeName(component), component);
  }
  return componentByName;
}

async function prepareComponent(
  preparer: Preparer,
  component: Component,
  value: unknown,
  path: string[],
  result: Run,
  extra: StoredDocument = {},
): Promise<StoredValue> {
  if (!isObject(value)) {
    result.issues.push(issue(path, 'must be an object', value));
    return null;
  }
  const { id, __typename, __component, ...fields } = value;
  void __typename;
  void __component;
  const componentId = await componentIdFor(preparer.context, id, path, result);
  const kept = componentId === undefined ? undefined : result.owned?.get(attributePathOf(path))?.get(componentId);
  const nested = await prepareAttributes(preparer, component.attributes, fields, 'create', path, result, kept);
  // refused: the write fails on the issue recorded
  if (componentId === undefined) return null;
  return { id: componentId, ...extra, ...nested };
}

/**
 * On create, a client's component id names nothing of this document: a new component is made. On
 * update, an id keeps the component it names if the document holds it there; any other is refused
 * (undefined), or two documents would share a component.
 */
async function componentIdFor(context: PrepareContext, given: unknown, path: string[], run: Run): Promise<number | undefined> {
  if (given === undefined || given === null || !run.owned) return context.nextComponentId();
  const id = parseMediaId(given);
  const attributePath = attributePathOf(path);
  if (id === undefined || !run.owned.get(attributePath)?.has(id) || run.usedComponentIds.has(id)) {
    run.issues.push(issue(path, `Some of the provided components in ${attributePath} are not related to the entity`, given));
    return undefined;
  }
  run.usedComponentIds.add(id);
  return id;
}

/**
 * A polymorphic relation, as Strapi's REST writes it: `[{ __type: 'api::x.x', id }]` (or `documentId`
 * instead of `id`), stored as `{ __type, documentId }` items; the whole relation is replaced.
 */
async function prepareMorph(context: PrepareContext, name: string, attribute: MorphAttribute, value: unknown, path: string[], result: Run): Promise<StoredValue | undefined> {
  const toMany = attribute.relation === 'morphToMany';
  if (value === null) return toMany ? [] : null;
  const items = Array.isArray(value) ? value : [value];
  const refs = items.map((item) => {
    if (!isObject(item) || typeof item.__type !== 'string' || !context.models.contentTypes.has(item.__type)) return undefined;
    const ref = typeof item.documentId === 'string' ? item.documentId : typeof item.id === 'number' || typeof item.id === 'string' ? Number(item.id) : undefined;
    return ref === undefined || (typeof ref === 'number' && !(Number.isSafeInteger(ref) && ref > 0)) ? undefined : { target: item.__type, ref };
  });
  if (!refs.every((ref) => ref !== undefined) || (!toMany && items.length > 1)) {
    const shape = '{ "__type": "<content-type uid>", "id": <id> } (or "documentId")';
    result.issues.push(issue(path, toMany ? `must be an array of ${shape}` : `must be one ${shape}`, value));
    return undefined;
  }
  const documentIdOf = new Map<string, Map<number, string>>();
  for (const target of new Set(refs.map((ref) => ref.target))) {
    const ids = refs.flatMap((ref) => (ref.target === target && typeof ref.ref === 'number' ? [ref.ref] : []));
    const found = ids.length > 0 ? await context.documentIdsOf(target, ids) : new Map<number, string>();
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) {
      result.issues.push(issue(path, `names no ${target} with id ${missing}`, value));
      return undefined;
    }
    documentIdOf.set(target, found);
  }
  const stored = refs.map(({ target, ref }) => ({ __type: target, documentId: typeof ref === 'string' ? ref : (documentIdOf.get(target)?.get(ref) as string) }));
  for (const target of documentIdOf.keys()) {
    // checked to exist with the document's other references
    const items = stored.filter((item) => item.__type === target).map((item) => item.documentId);
    result.storedReferences.push({ name, attribute: { type: 'relation', relation: 'manyToMany', target, localized: attribute.localized }, change: { kind: 'set', items } });
  }
  return toMany ? stored : (stored[0] ?? null);
}

async function prepareRelation(
  context: PrepareContext,
  name: string,
  attribute: RelationAttribute,
  value: unknown,
  path: string[],
  result: Run,
  kept: StoredDocument | undefined,
): Promise<StoredValue | undefined> {
  const parsed = parseRelationInput(attribute, value);
  if (!parsed.ok) {
    result.issues.push(issue(path, parsed.message, value));
    return undefined;
  }
  const ids = entityIdsOf(parsed.change);
  const change = resolveIds(parsed.change, ids.length > 0 ? await context.documentIdsOf(attribute.target, ids) : new Map());
  if ('missing' in change) {
    result.issues.push(issue(path, `names no document with id ${change.missing}`, value));
    return undefined;
  }
  const write = { name, attribute, change };
  if (path.length === 1) {
    result.relations.push(write);
    return undefined;
  }
  result.storedReferences.push(write);
  return embeddedRelationValue(attribute, change, kept?.[name]);
}

function prepareMedia(attribute: MediaAttribute, value: unknown, path: string[], result: Run): StoredValue | undefined {
  if (value === null) return attribute.multiple ? [] : null;
  const list = attribute.multiple ? (Array.isArray(value) ? value : [value]) : [value];
  const ids = list.map(parseMediaId);
  if (!ids.every((id): id is number => id !== undefined) || (!attribute.multiple && Array.isArray(value))) {
    result.issues.push(issue(path, attribute.multiple ? 'must be an array of file ids' : 'must be a file id', value));
    return undefined;
  }
  result.mediaIds.push(...ids);
  return attribute.multiple ? ids : ids[0];
}

async function prepareComponents(preparer: Preparer, attribute: ComponentAttribute, value: unknown, path: string[], result: Run): Promise<StoredValue | undefined> {
  const component = componentOf(preparer, attribute.component);
  if (value === null) return attribute.repeatable ? [] : null;
  if (!attribute.repeatable) return prepareComponent(preparer, component, value, path, result);
  if (!Array.isArray(value)) {
    result.issues.push(issue(path, 'must be an array', value));
    return undefined;
  }
  const items: StoredValue[] = [];
  for (const [index, item] of value.entries()) items.push(await prepareComponent(preparer, component, item, [...path, String(index)], result));
  return items;
}

async function prepareZone(preparer: Preparer, attribute: DynamicZoneAttribute, value: unknown, path: string[], result: Run): Promise<StoredValue | undefined> {
  if (value === null) return [];
  if (!Array.isArray(value)) {
    result.issues.push(issue(path, 'must be an array', value));
    return undefined;
  }
  const items: StoredValue[] = [];
  for (const [index, item] of value.entries()) {
    const itemPath = [...path, String(index)];
    const key = isObject(item) ? (item.__component ?? item.__typename) : undefined;
    const component = typeof key === 'string' ? preparer.componentByName.get(key) : undefined;
    // the validator refused an entry naming no component; a component of the project the zone does not list is refused here
    if (!component || !attribute.components.includes(component.uid)) {
      result.issues.push(
        issue(itemPath, `must name one of the zone's components (${attribute.components.join(', ')}) in __component or __typename`, key),
      );
      continue;
    }
    items.push(await prepareComponent(preparer, component, item, itemPath, result, { __component: component.uid }));
  }
  return items;
}

/** `kept`: the stored component these attributes belong to, when an update keeps it */
async function prepareValue(
  preparer: Preparer,
  name: string,
  attribute: Attribute,
  value: unknown,
  path: string[],
  result: Run,
  kept: StoredDocument | undefined,
): Promise<StoredValue | undefined> {
  switch (attribute.type) {
    case 'relation':
      return prepareRelation(preparer.context, name, attribute, value, path, result, kept);
    case 'morph':
      return prepareMorph(preparer.context, name, attribute, value, path, result);
    case 'media':
      return prepareMedia(attribute, value, path, result);
    case 'component':
      return prepareComponents(preparer, attribute, value, path, result);
    case 'dynamiczone':
      return prepareZone(preparer, attribute, value, path, result);
    default: {
      const coerced = coerceScalar(attribute, value);
      if (!coerced.ok) {
        result.issues.push(issue(path, coerced.message, value));
        return undefined;
      }
      // as Strapi does: a password attribute is never stored as given (its length was checked on the clear text)
      return attribute.type === 'password' && typeof coerced.value === 'string' ? hashPassword(coerced.value) : coerced.value;
    }
  }
}

async function prepareAttributes(
  preparer: Preparer,
  attributes: Record<string, Attribute>,
  input: Record<string, unknown>,
  mode: Mode,
  path: string[],
  result: Run,
  kept?: StoredDocument,
): Promise<StoredDocument> {
  const values: StoredDocument = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    // client keys: `toString` or `__proto__` name no attribute
    const attribute = Object.hasOwn(attributes, key) ? attributes[key] : undefined;
    if (!attribute) {
      result.issues.push(issue([...path, key], 'is not a known attribute', value));
      continue;
    }
    const prepared = await prepareValue(preparer, key, attribute, value, [...path, key], result, kept);
    if (prepared === undefined) continue;
    values[key] = prepared;
    // sorts read it (components are not sortable)
    if (attribute.type === 'biginteger' && path.length === 0) values[bigintSortField(key)] = bigintSortValue(prepared);
  }
  if (mode === 'create') {
    for (const [key, attribute] of Object.entries(attributes)) {
      if (key in values || input[key] !== undefined) continue;
      if ('default' in attribute && attribute.default !== undefined) values[key] = attribute.default as StoredValue;
    }
  }
  return values;
}

export const createDataPreparer = (context: PrepareContext) => {
  const preparer: Preparer = { context, componentByName: componentsByName(context.models) };
  return {
    /** `current`: the stored version an update changes, whose component ids it may keep */
    async prepare(attributes: Record<string, Attribute>, input: Record<string, unknown>, mode: Mode, current?: StoredDocument): Promise<Prepared> {
      const run: Run = { values: {}, relations: [], storedReferences: [], mediaIds: [], issues: [], usedComponentIds: new Set() };
      if (mode === 'update' && current) run.owned = ownedComponentIds(context.models, attributes, current);
      const values = await prepareAttributes(preparer, attributes, input, mode, [], run);
      return { values, relations: run.relations, storedReferences: run.storedReferences, mediaIds: run.mediaIds, issues: run.issues };
    },
  };
};
