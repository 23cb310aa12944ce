import { Kind, parse } from 'graphql';
import type { Extension } from '../extensions/types';

/**
 * The Query and Mutation fields hand-written extensions declare (`schema/extensions/*.graphql`
 * or a `typeDefs` string): the operations sofa serves as REST routes. Generated Shadow CRUD
 * fields and modules' own fields are not among them.
 */

export interface RootFieldNames {
  Query: Set<string>;
  Mutation: Set<string>;
}

export const extensionRootFields = (extensions: Extension[]): RootFieldNames => {
  const names: RootFieldNames = { Query: new Set(), Mutation: new Set() };
  for (const { typeDefs } of extensions) {
    if (!typeDefs) continue;
    for (const definition of parse(typeDefs).definitions) {
      if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
      const operation = definition.name.value;
      if (operation !== 'Query' && operation !== 'Mutation') continue;
      for (const field of definition.fields ?? []) names[operation].add(field.name.value);
    }
  }
  return names;
};
