import { Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

/**
 * The depth of each operation of a document, counted as Strapi (and graphql-depth-limit) count it:
 * a root field is depth 0, each selection set below a field one more, introspection fields
 * (`__schema`, `__type`) not at all. A fragment's depth is worked out once and reused at every
 * spread: graphql-depth-limit walked every path through the fragments, and 25 fragments each
 * spreading the one before twice made 2^25 paths (41 s of the main thread for a 1.5 KB document).
 * So the walk is linear in the document's size.
 *
 * A spread of an unknown fragment counts 0 and a fragment inside its own cycle counts 0 there:
 * graphql's own rules refuse such documents.
 */

const IN_PROGRESS = -1;

export const operationDepths = (document: DocumentNode): Map<OperationDefinitionNode, number> => {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const fragmentDepths = new Map<string, number>();

  const fragmentDepth = (name: string): number => {
    const known = fragmentDepths.get(name);
    if (known !== undefined) return Math.max(known, 0);
    const fragment = fragments.get(name);
    if (!fragment) return 0;
    fragmentDepths.set(name, IN_PROGRESS);
    const depth = depthOf(fragment.selectionSet);
    fragmentDepths.set(name, depth);
    return depth;
  };

  /** the deepest field below a selection set, its own fields being 0 */
  const depthOf = (selectionSet: SelectionSetNode): number => {
    let deepest = 0;
    for (const selection of selectionSet.selections) {
      let depth: number;
      if (selection.kind === Kind.FIELD) depth = selection.selectionSet && !selection.name.value.startsWith('__') ? 1 + depthOf(selection.selectionSet) : 0;
      else if (selection.kind === Kind.INLINE_FRAGMENT) depth = depthOf(selection.selectionSet);
      else depth = fragmentDepth(selection.name.value);
      if (depth > deepest) deepest = depth;
    }
    return deepest;
  };

  const depths = new Map<OperationDefinitionNode, number>();
  for (const definition of document.definitions) if (definition.kind === Kind.OPERATION_DEFINITION) depths.set(definition, depthOf(definition.selectionSet));
  return depths;
};
