import { ALL_FILTER_SCALARS, emitScalarFilterInput } from './scalar-types';
import { GENERIC_MORPH, PUBLICATION_FILTERS, SHARED_NAMES as N, publicationFilterEnumValue } from './naming';

/** Scalars, enums and types that every generated schema has, whatever the models. */
export const emitSharedSdl = (): string =>
  [
    'scalar JSON',
    'scalar DateTime',
    'scalar Date',
    'scalar Time',
    'scalar Long',
    '"""A string used to identify an i18n locale"""\nscalar I18NLocaleCode',
    `type ${N.error} {\n  code: String!\n  message: String\n}`,
    `type ${N.pagination} {\n  total: Int!\n  page: Int!\n  pageSize: Int!\n  pageCount: Int!\n}`,
    `type ${N.deleteResponse} {\n  documentId: ID!\n}`,
    `enum ${N.publicationStatus} {\n  DRAFT\n  PUBLISHED\n}`,
    `enum ${N.publicationFilter} {\n${PUBLICATION_FILTERS.map((cohort) => `  ${publicationFilterEnumValue(cohort)}`).join('\n')}\n}`,
    `input ${N.paginationArg} {\n  page: Int\n  pageSize: Int\n  start: Int\n  limit: Int\n}`,
    ...ALL_FILTER_SCALARS.map(emitScalarFilterInput),
    `type ${N.uploadFile} {
  documentId: ID!
  name: String!
  alternativeText: String
  caption: String
  focalPoint: JSON
  width: Int
  height: Int
  formats: JSON
  hash: String!
  ext: String
  mime: String!
  size: Float!
  url: String!
  previewUrl: String
  provider: String!
  provider_metadata: JSON
  related: [${GENERIC_MORPH}]
  createdAt: DateTime
  updatedAt: DateTime
  publishedAt: DateTime
}`,
    `type UploadFileRelationResponseCollection {\n  nodes: [${N.uploadFile}!]!\n}`,
    `input ${N.uploadFileFilters} {
  documentId: IDFilterInput
  id: IntFilterInput
  name: StringFilterInput
  alternativeText: StringFilterInput
  caption: StringFilterInput
  focalPoint: JSONFilterInput
  width: IntFilterInput
  height: IntFilterInput
  formats: JSONFilterInput
  hash: StringFilterInput
  ext: StringFilterInput
  mime: StringFilterInput
  size: FloatFilterInput
  url: StringFilterInput
  previewUrl: StringFilterInput
  provider: StringFilterInput
  provider_metadata: JSONFilterInput
  createdAt: DateTimeFilterInput
  updatedAt: DateTimeFilterInput
  publishedAt: DateTimeFilterInput
  and: [${N.uploadFileFilters}]
  or: [${N.uploadFileFilters}]
  not: ${N.uploadFileFilters}
}`,
    `input ${N.fileInfoInput} {\n  name: String\n  alternativeText: String\n  caption: String\n}`,
  ].join('\n\n');
