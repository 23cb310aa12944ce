import type { IResolvers } from '@graphql-tools/utils';
import type { Models } from '../models/types';
import type { StoredDocument } from '../storage/types';
import { componentTypeName, dynamicZoneName, typeName } from '../sdl/naming';
import { attributeFieldResolvers } from './attribute-resolvers';

export const componentResolvers = (models: Models): IResolvers => {
  const resolvers: Record<string, unknown> = {};
  for (const component of models.components.values()) {
    resolvers[componentTypeName(component)] = attributeFieldResolvers(models, component);
  }
  const typeNameByUid = new Map([...models.components.values()].map((component) => [component.uid, componentTypeName(component)]));
  for (const contentType of models.contentTypes.values()) {
    for (const [name, attribute] of Object.entries(contentType.attributes)) {
      if (attribute.type !== 'dynamiczone') continue;
      resolvers[dynamicZoneName(typeName(contentType), name)] = {
        __resolveType: (entry: StoredDocument) => typeNameByUid.get(entry.__component as string) ?? 'Error',
      };
    }
  }
  return resolvers as IResolvers;
};
