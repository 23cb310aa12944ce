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
