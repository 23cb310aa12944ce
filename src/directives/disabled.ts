import type { IResolvers } from '@graphql-tools/utils';
import {
  Kind,
  type ConstDirectiveNode,
  type DefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  type NamedTypeNode,
  type TypeNode,
} from 'graphql';

/**
 * `@disabled` (directives/disabled.graphql): removes what it marks (a type, a field, an input field, an
 * argument) from the type definitions before the schema is built, together with every field, argument, member
 * and interface that would point at a removed type, the types that leaves empty, and the types nothing can
 * reach any more (graphql-tools' `pruneSchema` rules). Done on the merged document, so the schema is built
 * once: as passes over a built schema (`mapSchema`, `pruneSchema`) it rebuilt every type four times, ~150 ms of
 * each start on the example models.
 */

/** what the pass took away, so that the resolvers written for it can be left out with it */
export interface Removed {
  /** type names */
  types: Set<string>;
  /** `Type.field` */
  fields: Set<string>;
}

export interface WithoutDisabled {
  document: DocumentNode;
  removed: Removed;
}

const ROOT_NAMES = ['Query', 'Mutation', 'Subscription'];

type Definition = DefinitionNode & { name?: { value: string } };
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const isMarked = (node: { directives?: readonly ConstDirectiveNode[] }): boolean => node.directives?.some((directive) => directive.name.value === 'disabled') ?? false;

const namedType = (type: TypeNode): string => (type.kind === Kind.NAMED_TYPE ? type.name.value : namedType(type.type));

const isComposite = (definition: Definition): boolean =>
  definition.kind === Kind.OBJECT_TYPE_DEFINITION ||
  definition.kind === Kind.OBJECT_TYPE_EXTENSION ||
  definition.kind === Kind.INTERFACE_TYPE_DEFINITION ||
  definition.kind === Kind.INTERFACE_TYPE_EXTENSION ||
  definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION ||
  definition.kind === Kind.INPUT_OBJECT_TYPE_EXTENSION;

/** types named by the document (definitions; built-in scalars are always there) */
const definedNames = (definitions: readonly Definition[]): Set<string> =>
  new Set(definitions.flatMap((definition) => (definition.name && !definition.kind.endsWith('Extension') ? [definition.name.value] : [])));

const BUILT_IN_SCALARS = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);

/**
 * One definition with what it marks taken out and what points at a missing type dropped; `undefined` when it is
 * marked itself. `dropped` collects the fields it drops (`Type.field`).
 */
function pruneDefinition(definition: Definition, exists: (name: string) => boolean, marks: boolean, dropped: Set<string>): Definition | undefined {
  if (marks && isMarked(definition as { directives?: readonly ConstDirectiveNode[] }) && !isRootName(definition)) return undefined;
  const keepArgument = (argument: InputValueDefinitionNode) => !(marks && isMarked(argument)) && exists(namedType(argument.type));
  const copy = { ...definition } as Mutable<Definition> & Record<string, unknown>;
  if ('fields' in definition && definition.fields) {
    const typeName = definition.name!.value;
    const fields = (definition.fields as readonly (FieldDefinitionNode | InputValueDefinitionNode)[]).flatMap((field) => {
      if ((marks && isMarked(field)) || !exists(namedType(field.type))) {
        dropped.add(`${typeName}.${field.name.value}`);
        return [];
      }
      if (field.kind === Kind.FIELD_DEFINITION && field.arguments) return [{ ...field, arguments: field.arguments.filter(keepArgument) }];
      return [field];
    });
    copy.fields = fields;
  }
  if ('interfaces' in definition && definition.interfaces) copy.interfaces = definition.interfaces.filter((type: NamedTypeNode) => exists(type.name.value));
  if (definition.kind === Kind.UNION_TYPE_DEFINITION || definition.kind === Kind.UNION_TYPE_EXTENSION) copy.types = definition.types?.filter((type) => exists(type.name.value));
  if (definition.kind === Kind.DIRECTIVE_DEFINITION) copy.arguments = definition.arguments?.filter(keepArgument);
  if (definition.kind === Kind.SCHEMA_DEFINITION || definition.kind === Kind.SCHEMA_EXTENSION) {
    copy.operationTypes = definition.operationTypes?.filter((operation) => exists(operation.type.name.value));
  }
  return copy as Definition;
}

// a root type is not removed by its mark (Strapi's switches leave Query in place), only when left empty
const isRootName = (definition: Definition): boolean => ROOT_NAMES.includes(definition.name?.value ?? '');

const isEmpty = (definition: Definition): boolean => isComposite(definition) && !definition.kind.endsWith('Extension') && ((definition as { fields?: readonly unknown[] }).fields?.length ?? 0) === 0;

/** the root types: the schema definition's, or the types named Query, Mutation and Subscription */
function rootNames(definitions: readonly Definition[], defined: Set<string>): string[] {
  const schema = definitions.filter((definition) => definition.kind === Kind.SCHEMA_DEFINITION || definition.kind === Kind.SCHEMA_EXTENSION);
  if (schema.length > 0) return schema.flatMap((definition) => ('operationTypes' in definition ? (definition.operationTypes ?? []).map((operation) => operation.type.name.value) : []));
  return ROOT_NAMES.filter((name) => defined.has(name));
}

const argumentTypes = (definition: Definition): string[] =>
  'fields' in definition && definition.fields
    ? (definition.fields as readonly (FieldDefinitionNode | InputValueDefinitionNode)[]).flatMap((field) => (field.kind === Kind.FIELD_DEFINITION ? (field.arguments ?? []).map((argument) => namedType(argument.type)) : []))
    : [];

/**
 * The types reachable from the roots and from the directives' arguments, as graphql-tools' `pruneSchema` walks:
 * field types, argument types, input field types, union members, implemented interfaces, and the types
 * implementing an interface some field returns.
 */
function reachable(definitions: readonly Definition[], defined: Set<string>): Set<string> {
  const byName = new Map<string, Definition[]>();
  for (const definition of definitions) if (definition.name) byName.set(definition.name.value, [...(byName.get(definition.name.value) ?? []), definition]);
  const implementers = new Map<string, string[]>();
  for (const definition of definitions) {
    for (const type of 'interfaces' in definition ? (definition.interfaces ?? []) : []) implementers.set(type.name.value, [...(implementers.get(type.name.value) ?? []), definition.name!.value]);
  }
  const directiveArguments = definitions.flatMap((definition) => (definition.kind === Kind.DIRECTIVE_DEFINITION ? (definition.arguments ?? []).map((argument) => namedType(argument.type)) : []));
  const queue = [...rootNames(definitions, defined), ...directiveArguments];
  const seen = new Set<string>();
  const returnedInterfaces = new Set<string>();
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const definition of byName.get(name) ?? []) {
      if ('types' in definition && definition.types) queue.push(...(definition.types as readonly NamedTypeNode[]).map((type) => type.name.value));
      if ('interfaces' in definition && definition.interfaces) queue.push(...definition.interfaces.map((type) => type.name.value));
      if ('fields' in definition && definition.fields) {
        for (const field of definition.fields as readonly (FieldDefinitionNode | InputValueDefinitionNode)[]) {
          const type = namedType(field.type);
          queue.push(type);
          const target = byName.get(type)?.[0];
          if (target && (target.kind === Kind.INTERFACE_TYPE_DEFINITION || target.kind === Kind.INTERFACE_TYPE_EXTENSION) && !returnedInterfaces.has(type)) {
            returnedInterfaces.add(type);
            queue.push(...(implementers.get(type) ?? []));
          }
        }
        queue.push(...argumentTypes(definition));
      }
    }
  }
  return seen;
}

/** `@disabled` applied to a merged document (one definition per type, as `mergeTypeDefs` gives it) */
export function withoutDisabled(document: DocumentNode): WithoutDisabled {
  const original = definedNames(document.definitions as Definition[]);
  const fields = new Set<string>();
  let definitions = document.definitions as readonly Definition[];
  // Removing fields can leave types empty, and removing those can empty others: repeat until stable.
  for (let marks = true; ; marks = false) {
    const defined = definedNames(definitions);
    const exists = (name: string) => defined.has(name) || BUILT_IN_SCALARS.has(name);
    const droppedBefore = fields.size;
    const next = definitions.flatMap((definition) => pruneDefinition(definition, exists, marks, fields) ?? []).filter((definition) => !isEmpty(definition));
    const changed = next.length !== definitions.length || fields.size !== droppedBefore;
    definitions = next;
    if (!marks && !changed) break;
  }
  const kept = reachable(definitions, definedNames(definitions));
  definitions = definitions.filter((definition) => !definition.name || definition.kind === Kind.DIRECTIVE_DEFINITION || kept.has(definition.name.value));
  const left = definedNames(definitions);
  const types = new Set([...original].filter((name) => !left.has(name)));
  return { document: { ...document, definitions }, removed: { types, fields: new Set([...fields].filter((field) => !types.has(field.split('.')[0]))) } };
}

/** `resolvers` without what `removed` names: the schema no longer has a place for them */
export function resolversLeft(resolvers: IResolvers, removed: Removed): IResolvers {
  const left: IResolvers = {};
  for (const [typeName, value] of Object.entries(resolvers)) {
    if (removed.types.has(typeName)) continue;
    // only a type that lost fields is copied: a scalar's resolver (a GraphQLScalarType) is kept as it is
    const lostFields = Object.keys(value).some((fieldName) => removed.fields.has(`${typeName}.${fieldName}`));
    left[typeName] = lostFields ? Object.fromEntries(Object.entries(value).filter(([fieldName]) => !removed.fields.has(`${typeName}.${fieldName}`))) : value;
  }
  return left;
}
