/**
 * Paths of validation errors in yup's notation, which Strapi's messages carry: `compo.description`,
 * `compo[0].description`, `dz[0].__component`, a key holding a dot as `seo["a.b"]`. Strapi's
 * `details.errors[].path` is that path split (lodash's `toPath`): `["compo", "0", "description"]`.
 */

const SEGMENT = /\[(\d+)\]|\["([^"]*)"\]|[^.[\]]+/g;

/** A yup path split into its keys and indexes, as lodash's `toPath` splits it; none for the value itself. */
export const toPath = (path: string | undefined): string[] =>
  path ? [...path.matchAll(SEGMENT)].map(([whole, index, quoted]) => index ?? quoted ?? whole) : [];

/** Keys and indexes (digits: an item of a list) written as yup writes a path. */
export const yupPath = (segments: readonly string[]): string =>
  segments.reduce((path, segment) => {
    if (/^\d+$/.test(segment)) return `${path}[${segment}]`;
    if (segment.includes('.')) return `${path}["${segment}"]`;
    return path === '' ? segment : `${path}.${segment}`;
  }, '');
