import type { Attribute, Models } from './types';

/**
 * Where a content-type's documents hold media file ids: its media attributes and those of the
 * components and dynamic-zone entries it embeds, as dotted paths (`cover`, `seo.metaImage`,
 * `blocks.images`), which store filters follow through lists. Worked out once per set of models.
 */

const known = new WeakMap<Models, Map<string, string[]>>();

const pathsIn = (models: Models, attributes: Record<string, Attribute>, prefix: string, seen: Set<string>): string[] =>
  Object.entries(attributes).flatMap(([name, attribute]) => {
    if (attribute.type === 'media') return [`${prefix}${name}`];
    const uids = attribute.type === 'component' ? [attribute.component] : attribute.type === 'dynamiczone' ? attribute.components : [];
    return uids.flatMap((uid) => {
      const component = models.components.get(uid);
      // a cycle is a model problem reported at load; here it only must not recurse forever
      if (!component || seen.has(uid)) return [];
      return pathsIn(models, component.attributes, `${prefix}${name}.`, new Set([...seen, uid]));
    });
  });

export const mediaPathsOf = (models: Models, contentTypeUid: string): string[] => {
  let byType = known.get(models);
  if (!byType) {
    byType = new Map([...models.contentTypes.values()].map((contentType) => [contentType.uid, [...new Set(pathsIn(models, contentType.attributes, '', new Set()))]]));
    known.set(models, byType);
  }
  return byType.get(contentTypeUid) ?? [];
};
