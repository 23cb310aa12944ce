import type { IResolvers } from '@graphql-tools/utils';
import type { Attribute, Models } from '../models/types';
import { renamedEnumValues } from '../models/enum-values';
import { componentTypeName, enumName, typeName } from '../sdl/naming';

/**
 * Each enumeration's GraphQL names stand for the values the store holds (`datetime_local` is
 * `datetime-local`): graphql-js turns input names into values and values into names on output,
 * so resolvers, the store, filters and REST only ever see the values.
 */
export const enumResolvers = (models: Models): IResolvers => {
  const resolvers: IResolvers = {};
  const add = (owner: string, attributes: Record<string, Attribute>) => {
    for (const [name, attribute] of Object.entries(attributes)) {
      const values = renamedEnumValues(attribute);
      if (values) resolvers[enumName(owner, name)] = Object.fromEntries(values);
    }
  };
  for (const contentType of models.contentTypes.values()) add(typeName(contentType), contentType.attributes);
  for (const component of models.components.values()) add(componentTypeName(component), component.attributes);
  return resolvers;
};
