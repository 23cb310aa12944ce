/** JSON Schemas of the scalars sofa cannot describe by itself (it reads graphql-scalars' own). */
export const SCALAR_SCHEMAS: Record<string, Record<string, unknown>> = {
  I18NLocaleCode: { type: 'string', example: 'en' },
  RelationInput: { description: 'documentId, array of documentIds, numeric ids, or { connect, disconnect, set }' },
  JSON: {},
  Long: { type: 'string', pattern: '^-?\\d+$' },
  Time: { type: 'string', example: '12:30:00.000' },
};
