import type { Component, ContentType } from '../models/types';

/**
 * The single source of every generated GraphQL name, matching Strapi's GraphQL plugin.
 * Anything that needs a type, field or argument name asks here.
 */

const wordsOf = (value: string): string[] => value.split(/[^A-Za-z0-9]+/).filter(Boolean);
const upperFirst = (value: string): string => value.charAt(0).toUpperCase() + value.slice(1);

const pascalCase = (value: string): string => wordsOf(value).map(upperFirst).join('');
const camelCase = (value: string): string => {
  const pascal = pascalCase(value);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
};

export const typeName = (contentType: Pick<ContentType, 'singularName'>): string => pascalCase(contentType.singularName);
export const componentTypeName = (component: Pick<Component, 'category' | 'name'>): string =>
  `Component${pascalCase(component.category)}${pascalCase(component.name)}`;

export const inputName = (type: string): string => `${type}Input`;
export const filtersInputName = (type: string): string => `${type}FiltersInput`;
export const entityCollectionName = (type: string): string => `${type}EntityResponseCollection`;
export const relationCollectionName = (type: string): string => `${type}RelationResponseCollection`;
/**
 * A connection's aggregates and groups (issue 36): `ArticleAggregator`, `ArticleAggregatorSum`, `ArticleGroupBy`, `ArticleGroupByEntry`,
 * and the groups by several attributes: `groups(by: [ArticleGroupByAttribute!]!)` answering `ArticleGroupByCombination`s keyed by `ArticleGroupByKey`.
 */
export const aggregatorName = (type: string, part: '' | 'Sum' | 'Avg' | 'Min' | 'Max' = ''): string => `${type}Aggregator${part}`;
export const groupByName = (type: string): string => `${type}GroupBy`;
export const groupByEntryName = (type: string): string => `${type}GroupByEntry`;
export const groupByAttributeName = (type: string): string => `${type}GroupByAttribute`;
export const groupByKeyName = (type: string): string => `${type}GroupByKey`;
export const groupByCombinationName = (type: string): string => `${type}GroupByCombination`;
export const enumName = (ownerType: string, attribute: string): string =>
  `ENUM_${ownerType.toUpperCase()}_${attribute.toUpperCase()}`;
export const dynamicZoneName = (ownerType: string, attribute: string): string =>
  `${ownerType}${pascalCase(attribute)}DynamicZone`;
export const dynamicZoneInputName = (ownerType: string, attribute: string): string =>
  `${dynamicZoneName(ownerType, attribute)}Input`;

export const singularQueryName = (contentType: Pick<ContentType, 'singularName'>): string =>
  camelCase(contentType.singularName);
export const pluralQueryName = (contentType: Pick<ContentType, 'pluralName'>): string => camelCase(contentType.pluralName);
export const connectionQueryName = (contentType: Pick<ContentType, 'pluralName'>): string =>
  `${pluralQueryName(contentType)}_connection`;
export const connectionFieldName = (attribute: string): string => `${attribute}_connection`;

export const createMutationName = (contentType: Pick<ContentType, 'singularName'>): string =>
  `create${typeName(contentType)}`;
export const updateMutationName = (contentType: Pick<ContentType, 'singularName'>): string =>
  `update${typeName(contentType)}`;
export const deleteMutationName = (contentType: Pick<ContentType, 'singularName'>): string =>
  `delete${typeName(contentType)}`;

/** Permission string for an action on a content-type: `api::article.article.find`. */
export const permissionFor = (contentType: Pick<ContentType, 'uid'>, action: ContentAction): string =>
  `${contentType.uid}.${action}`;

export type ContentAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

/** Subscription fields per content-type, by the content event that feeds them: `articleCreated`, … */
export const SUBSCRIPTION_EVENTS = { Created: 'entry.create', Updated: 'entry.update', Deleted: 'entry.delete', Published: 'entry.publish' } as const;
export type SubscriptionSuffix = keyof typeof SUBSCRIPTION_EVENTS;
export const subscriptionName = (contentType: Pick<ContentType, 'singularName'>, suffix: SubscriptionSuffix): string => `${singularQueryName(contentType)}${suffix}`;
/** A type without draft & publish is never published: it has no `…Published`. */
export const subscriptionSuffixes = (contentType: Pick<ContentType, 'draftAndPublish'>): SubscriptionSuffix[] =>
  (Object.keys(SUBSCRIPTION_EVENTS) as SubscriptionSuffix[]).filter((suffix) => suffix !== 'Published' || contentType.draftAndPublish);

/** The union of every type a polymorphic relation may answer, as Strapi's GraphQL plugin names it. */
export const GENERIC_MORPH = 'GenericMorph';

export const SHARED_NAMES = {
  publicationStatus: 'PublicationStatus',
  publicationFilter: 'PublicationFilter',
  localeCode: 'I18NLocaleCode',
  pagination: 'Pagination',
  paginationArg: 'PaginationArg',
  deleteResponse: 'DeleteMutationResponse',
  uploadFile: 'UploadFile',
  uploadFileFilters: 'UploadFileFiltersInput',
  fileInfoInput: 'FileInfoInput',
  error: 'Error',
} as const;

/** Cohorts of documents by how their draft and published versions relate (Strapi's `publicationFilter`). */
export const PUBLICATION_FILTERS = [
  'never-published',
  'never-published-document',
  'has-published-version',
  'has-published-version-document',
  'modified',
  'unmodified',
  'published-without-draft',
  'published-with-draft',
] as const;
export type PublicationFilter = (typeof PUBLICATION_FILTERS)[number];

/** `never-published` ↔ `NEVER_PUBLISHED`: the GraphQL enum value of a publication cohort. */
export const publicationFilterEnumValue = (cohort: string): string => cohort.toUpperCase().replace(/-/g, '_');
