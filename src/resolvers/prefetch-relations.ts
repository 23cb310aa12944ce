import type { VariableValues } from '@graphql-tools/utils';
import { subFieldsOf } from './selected-fields';
import { getArgumentValues, getNamedType, isObjectType, Kind, type FieldNode, type GraphQLObjectType, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { Component, ContentType } from '../models/types';
import type { StoredDocument } from '../storage/types';
import { componentTypeName, connectionFieldName } from '../sdl/naming';
import { embedsRelations } from '../models/component-relations';
import type { FolioContext, PrefetchedValue } from '../context';
import { relationBatch, relationScope, relationValue, type ListArgs } from './relation-loader';
import { scopeOfRow, withScope, type ScopedRow } from './row-scope';
import { scopeKey, type Scope } from '../documents/scope';

/**
 * Look-ahead loading. A resolver that returns rows loads, before it returns, the relations that
 * its selection set asks of them: one store query per relation field for all the rows together,
 * then the same for the rows found, down the selection. The relation fields then answer from
 * memory, synchronously. DataLoader batches store queries as well, but hands every parent a
 * promise, and a promise per row is most of what a nested list costs graphql-js's executor.
 *
 * Components and dynamic-zone entries are walked through the same way: the relations of all the
 * entries at one level are one store query per relation field, whatever the number of entries.
 *
 * Answers are kept per request by field node and parent row. A field that was not looked ahead
 * (a mutation's result, a failed look-ahead) resolves through its DataLoader as before, so an
 * error in a relation's arguments is still reported at that field's own path.
 */

interface Selection {
  info: GraphQLResolveInfo;
  context: FolioContext;
  /** the variables in the shape collectSubFields reads; one object per look-ahead, so its memo holds */
  variables: VariableValues;
}

const selectionOf = (context: FolioContext, info: GraphQLResolveInfo): Selection => ({ info, context, variables: { coerced: info.variableValues, sources: {} } });

/** A content-type or a component: whose attributes a selection's fields are. */
type Owner = ContentType | Component;

const attributeOf = (owner: Owner, name: string) => (Object.hasOwn(owner.attributes, name) ? owner.attributes[name] : undefined);

/** The relation field a selected field reads, plain (`tags`) or as a connection (`tags_connection`). */
const relationOf = (owner: Owner, fieldName: string) => {
  const plain = attributeOf(owner, fieldName);
  if (plain?.type === 'relation') return { field: fieldName, attribute: plain, connection: false };
  if (!fieldName.endsWith('_connection')) return undefined;
  const field = fieldName.slice(0, -'_connection'.length);
  const attribute = attributeOf(owner, field);
  return attribute?.type === 'relation' && connectionFieldName(field) === fieldName ? { field, attribute, connection: true } : undefined;
};

/** Rows grouped by the scope their relation is read in (one group, unless the rows mix locales or statuses). */
const byScope = (context: FolioContext, target: ContentType, rows: readonly ScopedRow[]) => {
  const groups = new Map<string, { scope: Scope; rows: ScopedRow[] }>();
  for (const row of rows) {
    const scope = relationScope(context, target, row);
    const key = scopeKey(scope);
    const group = groups.get(key);
    if (group) group.rows.push(row);
    else groups.set(key, { scope, rows: [row] });
  }
  return groups.values();
};

const isEntry = (value: unknown): value is StoredDocument => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The entries of a component or zone field, handed their document's scope and grouped by component. */
const entriesByComponent = (context: FolioContext, field: string, rows: readonly ScopedRow[]): Map<string, StoredDocument[]> => {
  const groups = new Map<string, StoredDocument[]>();
  for (const row of rows) {
    const value = row[field];
    const scope = scopeOfRow(context, row);
    for (const entry of Array.isArray(value) ? value : [value]) {
      if (!isEntry(entry)) continue;
      withScope(context, entry, scope);
      const uid = typeof entry.__component === 'string' ? entry.__component : '';
      const group = groups.get(uid);
      if (group) group.push(entry);
      else groups.set(uid, [entry]);
    }
  }
  return groups;
};

/** Walks into a component or dynamic-zone field whose entries may hold relations. */
const prefetchEmbedded = async (selection: Selection, owner: Owner, nodes: FieldNode[], rows: readonly ScopedRow[]) => {
  const { models } = selection.context.services;
  const field = nodes[0].name.value;
  const attribute = attributeOf(owner, field);
  if (!attribute || !embedsRelations(models, attribute)) return;
  const work: Promise<void>[] = [];
  for (const [uid, entries] of entriesByComponent(selection.context, field, rows)) {
    // a zone's entries name their component; a component field's are all of its one component
    const component = models.components.get(uid || (attribute.type === 'component' ? attribute.component : ''));
    const type = component && selection.info.schema.getType(componentTypeName(component));
    if (component && isObjectType(type)) work.push(prefetchRows(selection, component, type, nodes, entries));
  }
  await Promise.all(work);
};

const prefetchField = async (selection: Selection, owner: Owner, type: GraphQLObjectType, nodes: FieldNode[], rows: readonly ScopedRow[]) => {
  const { context } = selection;
  const relation = relationOf(owner, nodes[0].name.value);
  if (!relation) return prefetchEmbedded(selection, owner, nodes, rows);
  const fieldDef = type.getFields()[nodes[0].name.value];
  const target = context.services.models.contentTypes.get(relation.attribute.target);
  if (!fieldDef || !target) return;
  const targetType = selection.info.schema.getType(getNamedType(fieldDef.type).name);
  const answers = new Map<StoredDocument, PrefetchedValue>();
  const found = new Set<ScopedRow>();
  try {
    const args = getArgumentValues(fieldDef, nodes[0], selection.info.variableValues) as ListArgs;
    for (const group of byScope(context, target, rows)) {
      const related = await relationBatch(context, relation.field, relation.attribute, target, group.scope, args)(group.rows);
      group.rows.forEach((row, index) => {
        answers.set(row, relation.connection ? { nodes: related[index] } : relationValue(relation.attribute, related[index]));
        for (const child of related[index]) found.add(child);
      });
    }
  } catch {
    return;
  }
  const prefetched = (context.prefetched ??= new Map());
  const known = prefetched.get(nodes[0]);
  if (known) for (const [row, value] of answers) known.set(row, value);
  else prefetched.set(nodes[0], answers);
  if (!isObjectType(targetType)) return;
  if (relation.connection) await prefetchUnderNodes(selection, target, targetType, nodes, [...found]);
  else await prefetchRows(selection, target, targetType, nodes, [...found]);
};

// Per field node of a parsed (cached) document and owner uid: whether its selection names a relation at all.
const namesRelation = new WeakMap<FieldNode, Map<string, boolean>>();

/** A look at the names only (no variables, no field collection): most selections name no relation, and stop here. */
const mayNameRelation = ({ info, context }: Selection, owner: Owner, nodes: readonly FieldNode[]): boolean => {
  const visited = new Set<string>();
  const leadsToRelation = (name: string): boolean => {
    if (relationOf(owner, name) !== undefined) return true;
    const attribute = attributeOf(owner, name);
    return attribute !== undefined && embedsRelations(context.services.models, attribute);
  };
  const walk = (selectionSet: SelectionSetNode | undefined): boolean =>
    (selectionSet?.selections ?? []).some((selection) => {
      if (selection.kind === Kind.FIELD) return leadsToRelation(selection.name.value);
      if (selection.kind === Kind.INLINE_FRAGMENT) return walk(selection.selectionSet);
      if (visited.has(selection.name.value)) return false;
      visited.add(selection.name.value);
      return walk(info.fragments[selection.name.value]?.selectionSet);
    });
  return nodes.some((node) => {
    let byOwner = namesRelation.get(node);
    if (!byOwner) namesRelation.set(node, (byOwner = new Map()));
    let known = byOwner.get(owner.uid);
    if (known === undefined) byOwner.set(owner.uid, (known = walk(node.selectionSet)));
    return known;
  });
};

/** Loads the relations selected under `nodes` (fields of `type`) for all `rows` at once. */
async function prefetchRows(selection: Selection, owner: Owner, type: GraphQLObjectType, nodes: readonly FieldNode[], rows: readonly ScopedRow[]): Promise<void> {
  if (rows.length === 0 || !mayNameRelation(selection, owner, nodes)) return;
  await Promise.all([...subFieldsOf(selection.info, selection.variables, type, nodes).values()].map((fieldNodes) => prefetchField(selection, owner, type, fieldNodes, rows)));
}

/** The rows of a connection (`type`, selected by `nodes`) sit under its `nodes` field. */
const prefetchUnderNodes = async (selection: Selection, contentType: ContentType, type: GraphQLObjectType, nodes: readonly FieldNode[], rows: readonly ScopedRow[]) => {
  const rowField = type.getFields().nodes;
  const rowType = rowField && getNamedType(rowField.type);
  if (!isObjectType(rowType)) return;
  for (const fieldNodes of subFieldsOf(selection.info, selection.variables, type, nodes).values()) {
    if (fieldNodes[0].name.value === 'nodes') await prefetchRows(selection, contentType, rowType, fieldNodes, rows);
  }
};

/** For a resolver whose field returns `rows` of `contentType` (a list, or one row). */
export const prefetchRelations = async (context: FolioContext, contentType: ContentType, rows: readonly ScopedRow[], info: GraphQLResolveInfo): Promise<void> => {
  const type = getNamedType(info.returnType);
  if (isObjectType(type)) await prefetchRows(selectionOf(context, info), contentType, type, info.fieldNodes, rows);
};

/** For a `_connection` resolver: the rows are under the connection's `nodes`. */
export const prefetchConnectionRelations = async (context: FolioContext, contentType: ContentType, rows: readonly ScopedRow[], info: GraphQLResolveInfo): Promise<void> => {
  const connection = getNamedType(info.returnType);
  if (isObjectType(connection)) await prefetchUnderNodes(selectionOf(context, info), contentType, connection, info.fieldNodes, rows);
};

/** The looked-ahead answer of a relation field for `parent`, or undefined when there is none. */
export const prefetchedAnswer = (context: FolioContext, info: GraphQLResolveInfo, parent: StoredDocument): PrefetchedValue | undefined =>
  context.prefetched?.get(info.fieldNodes[0])?.get(parent);
