import { RELATION_INPUT_DESCRIPTION } from '../sdl/emit-sdl';

/** JSON Schemas of the scalars sofa cannot describe by itself (it reads graphql-scalars' own). */
export const SCALAR_SCHEMAS: Record<string, Record<string, unknown>> = {
  I18NLocaleCode: { type: 'string', example: 'en' },
  RelationInput: { description: RELATION_INPUT_DESCRIPTION },
  JSON: {},
  Long: { type: 'string', pattern: '^-?\\d+$' },
  Time: { type: 'string', example: '12:30:00.000' },
};
