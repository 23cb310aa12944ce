import type { Attribute, ContentType, Models } from '../models/types';
import * as names from './naming';
import { authDirective, DISABLED, type SdlField } from './sdl-builder';
import type { EmitContext } from './emit-model-sdl';

/** Shadow CRUD queries and mutations of one content-type, each marked with its `@auth` scope. */

const { publicationStatus: STATUS, publicationFilter: PUBLICATION, localeCode: LOCALE, paginationArg: PAGINATION } = names.SHARED_NAMES;

export interface RootFields {
  queries: SdlField[];
  mutations: SdlField[];
  subscriptions: SdlField[];
}

/** One per content event, readable by whoever may `find` the type; a collection type's take the list's filters. */
const subscriptionFields = (contentType: ContentType, args: string[], directives: string[]): SdlField[] =>
  names.subscriptionSuffixes(contentType).map((suffix) => ({
    name: names.subscriptionName(contentType, suffix),
    type: names.typeName(contentType),
    args,
    directives,
  }));

/** Whether a type's input holds a relation, itself or in its components (a dynamic zone's input is JSON, which holds any form). */
const hasRelationInput = (models: Models, attributes: Record<string, Attribute>, seen = new Set<string>()): boolean =>
  Object.values(attributes).some((attribute) => {
    if (attribute.type === 'relation') return true;
    if (attribute.type !== 'component' || seen.has(attribute.component)) return false;
    seen.add(attribute.component);
    const component = models.components.get(attribute.component);
    return component !== undefined && hasRelationInput(models, component.attributes, seen);
  });

export const emitRootFields = (context: EmitContext, contentType: ContentType): RootFields => {
  const type = names.typeName(contentType);
  const marks = (action: names.ContentAction): string[] => [
    ...(context.shadowCrud.isActionEnabled(contentType.uid, action) ? [] : [DISABLED]),
    authDirective([names.permissionFor(contentType, action)]),
  ];
  const locale = contentType.localized ? [`locale: ${LOCALE}`] : [];
  const status = `status: ${STATUS} = PUBLISHED`;
  // reads only, as in Strapi's schema
  const read = [status, 'hasPublishedVersion: Boolean', `publicationFilter: ${PUBLICATION}`];
  const data = `data: ${names.inputName(type)}!`;
  const relations = hasRelationInput(context.models, contentType.attributes) ? ['relations: [RelationWriteInput!]'] : [];

  if (contentType.kind === 'singleType') {
    return {
      queries: [{ name: names.singularQueryName(contentType), type, args: [...read, ...locale], directives: marks('find') }],
      mutations: [
        { name: names.updateMutationName(contentType), type, args: [status, data, ...locale, ...relations], directives: marks('update') },
        {
          name: names.deleteMutationName(contentType),
          type: names.SHARED_NAMES.deleteResponse,
          args: locale,
          directives: marks('delete'),
        },
      ],
      subscriptions: subscriptionFields(contentType, [], marks('find')),
    };
  }

  const listArgs = [
    `filters: ${names.filtersInputName(type)}`,
    `pagination: ${PAGINATION} = {}`,
    'sort: [String] = []',
    ...read,
    ...locale,
  ];
  return {
    queries: [
      { name: names.singularQueryName(contentType), type, args: ['documentId: ID!', ...read, ...locale], directives: marks('findOne') },
      { name: names.connectionQueryName(contentType), type: names.entityCollectionName(type), args: listArgs, directives: marks('find') },
      { name: names.pluralQueryName(contentType), type: `[${type}]!`, args: listArgs, directives: marks('find') },
    ],
    // A type whose mutations are off has none, rather than disabled ones: a module may define its own
    // under those names (users-permissions' createUsersPermissionsUser, typed as Strapi types it).
    mutations: !context.shadowCrud.isMutationsEnabled(contentType.uid) ? [] : [
      { name: names.createMutationName(contentType), type, args: [status, data, ...locale, ...relations], directives: marks('create') },
      {
        name: names.updateMutationName(contentType),
        type,
        args: ['documentId: ID!', status, data, ...locale, ...relations],
        directives: marks('update'),
      },
      {
        name: names.deleteMutationName(contentType),
        type: names.SHARED_NAMES.deleteResponse,
        args: ['documentId: ID!', ...locale],
        directives: marks('delete'),
      },
    ],
    subscriptions: subscriptionFields(contentType, [`filters: ${names.filtersInputName(type)}`], marks('find')),
  };
};
