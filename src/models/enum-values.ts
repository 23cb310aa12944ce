import type { Attribute } from './types';

/**
 * An enumeration value as a GraphQL enum value, renamed as Strapi's GraphQL plugin renames it
 * (`toRegressedEnumValue`: accents dropped, every run of other characters one `_`, none at the
 * ends): `datetime-local` → `datetime_local`, `with space` → `with_space`. A name that would start
 * with a digit (`2xl`, which GraphQL cannot name) gets a leading `_`. The store, REST and filters keep
 * the value itself; GraphQL input and output translate between the two.
 */
export const enumValueName = (value: string): string => {
  const regressed = value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[0-9]/.test(regressed) ? `_${regressed}` : regressed;
};

/** GraphQL name → stored value of an attribute's values, or undefined when every value is its own name (nothing to translate). */
export const renamedEnumValues = (attribute: Attribute): Map<string, string> | undefined => {
  if (attribute.type !== 'enumeration' || !attribute.enum || attribute.enum.every((value) => enumValueName(value) === value)) return undefined;
  return new Map(attribute.enum.map((value) => [enumValueName(value), value]));
};
