import { isUnionNode, leafFieldsOf, populatedInOrder, type PopulateNode, type Selection } from './selection';

/**
 * A Selection as GraphQL: the selection-set text, the variables its populated fields' filters
 * and sorts become (`$p0`, `$p1`… in one fixed walk order), and a key naming its shape without
 * its values, under which the compiled operation is cached.
 */

export interface SelectionVariable {
  type: string;
  value: unknown;
}

interface NodeArgument {
  name: 'filters' | 'sort';
  type: string;
  value: unknown;
}

/** Populated to-many fields read every related row, up to the GraphQL maximum (`limit: -1`). */
const ALL_ROWS = 'pagination: { limit: -1 }';

const argumentsOf = (node: PopulateNode): NodeArgument[] => {
  if (node.kind === 'count' || isUnionNode(node)) return [];
  const found: NodeArgument[] = [];
  if (node.filters !== undefined && node.selection.view.filtersInput) found.push({ name: 'filters', type: node.selection.view.filtersInput, value: node.filters });
  if (node.sort !== undefined) found.push({ name: 'sort', type: '[String]', value: node.sort });
  return found;
};

const readsAllRows = (node: PopulateNode): boolean =>
  node.kind === 'localizations' || (node.kind === 'relation' && node.populatable.kind === 'relation' && node.populatable.toMany);

const walk = (selection: Selection, visit: (node: PopulateNode) => void) => {
  for (const node of populatedInOrder(selection)) {
    visit(node);
    if (isUnionNode(node)) for (const component of node.components.values()) walk(component, visit);
    else if (node.kind !== 'count') walk(node.selection, visit);
  }
};

/** The values of the selection's variables, in the order `selectionText` names them. */
export const selectionVariables = (selection: Selection): SelectionVariable[] => {
  const variables: SelectionVariable[] = [];
  walk(selection, (node) => {
    for (const argument of argumentsOf(node)) variables.push({ type: argument.type, value: argument.value });
  });
  return variables;
};

const nodeKey = (node: PopulateNode): string => {
  const name = node.populatable.name;
  switch (node.kind) {
    case 'count':
      return `${name}#`;
    case 'dynamiczone':
    case 'morph':
      return `${name}${node.restricted ? '!' : ''}{${[...node.components].map(([uid, component]) => `${uid}:${selectionKey(component)}`).join(';')}}`;
    default:
      return `${name}${argumentsOf(node).map((argument) => `@${argument.name}`).join('')}${selectionKey(node.selection)}`;
  }
};

export const selectionKey = (selection: Selection): string =>
  `(${selection.fields?.join(',') ?? '*'}|${populatedInOrder(selection).map(nodeKey).join('|')})`;

/**
 * The response-key prefix of the `index`th component of a dynamic zone. Components of one zone may
 * share a field name with different types (`title` a string here, a component there), which GraphQL
 * refuses as a conflict unless the selections are aliased apart: each fragment's fields answer
 * under their component's prefix, and the shaper gives them back their names.
 */
export const zoneAliasPrefix = (index: number): string => `_c${index}_`;

const aliased = (prefix: string, name: string): string => (prefix ? `${prefix}${name}: ${name}` : name);

/** Selection-set text; `next()` hands out the variable names in walk order; `prefix` aliases the top-level fields. */
export const selectionText = (selection: Selection, next: () => string, prefix = ''): string => {
  const parts: string[] = selection.view.identity === 'documentId' ? [`${prefix}id: documentId`] : [];
  parts.push(...leafFieldsOf(selection).map((name) => aliased(prefix, name)));
  for (const node of populatedInOrder(selection)) parts.push(`${prefix ? `${prefix}${node.populatable.name}: ` : ''}${nodeText(node, next)}`);
  return parts.join(' ');
};

const nodeText = (node: PopulateNode, next: () => string): string => {
  const name = node.populatable.name;
  if (node.kind === 'count') return `${name}(${ALL_ROWS}) { documentId }`;
  if (isUnionNode(node)) {
    const fragments = [...node.components.values()].map(
      (component, index) => `... on ${component.view.typeName} { ${selectionText(component, next, zoneAliasPrefix(index))} }`,
    );
    return `${name} { __typename ${fragments.join(' ')} }`;
  }
  const args = argumentsOf(node).map((argument) => `${argument.name}: ${next()}`);
  if (readsAllRows(node)) args.push(ALL_ROWS);
  return `${name}${args.length > 0 ? `(${args.join(', ')})` : ''} { ${selectionText(node.selection, next)} }`;
};
