import type { Models } from './types';

/** Whether any content-type has a polymorphic relation: only then is there a `GenericMorph` to serve. */
export const hasMorphRelations = (models: Models): boolean =>
  [...models.contentTypes.values()].some((contentType) => Object.values(contentType.attributes).some((attribute) => attribute.type === 'morph'));
