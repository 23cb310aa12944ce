import { ModelError } from './model-error';
import type { Attribute, ContentType, Models } from './types';
import { findModelProblems } from './validate-models';

/**
 * Plugin content types (users, roles) joined to a project's models, each with the attributes the
 * project adds to it in `extensions/<plugin>/content-types/<name>/schema.json`, as Strapi merges
 * them. The plugin's own attributes keep the plugin's definition (a project cannot make the
 * password public); the added ones are validated with the rest of the models.
 */
/**
 * The attributes an added relation's owning side may be among: the project's types', and a plugin type's own
 * with what the project adds to it (a user's `members`, mappedBy the `manager` the same extension adds).
 */
const attributesByUid = (models: Models, types: readonly ContentType[]): Map<string, Record<string, Attribute>> =>
  new Map([
    ...[...models.contentTypes].map(([uid, type]) => [uid, type.attributes] as const),
    ...types.map((type) => [type.uid, { ...models.pluginExtensions?.get(type.uid)?.attributes, ...type.attributes }] as const),
  ]);

/**
 * An added inverse relation whose owning side does not exist (foodadvisor's user `articles`, mappedBy an
 * `author` its articles do not have) can hold nothing: left out with a warning, as it breaks nothing.
 */
const danglingInverse = (attributes: Map<string, Record<string, Attribute>>, attribute: Attribute): boolean =>
  attribute.type === 'relation' && attribute.mappedBy !== undefined && !(attribute.mappedBy in (attributes.get(attribute.target) ?? {}));

export const withPluginTypes = (models: Models, types: readonly ContentType[], warn = (line: string) => void process.stderr.write(`${line}\n`)): Models => {
  const owners = attributesByUid(models, types);
  const extended = types.map((type) => {
    const extension = models.pluginExtensions?.get(type.uid);
    if (!extension) return type;
    const added = Object.fromEntries(
      Object.entries(extension.attributes).filter(([name, attribute]) => {
        if (name in type.attributes) return false;
        if (!danglingInverse(owners, attribute)) return true;
        warn(`folio: ${extension.file}: attribute "${name}" is left out: its owning side (${attribute.type === 'relation' ? `${attribute.target}.${attribute.mappedBy}` : ''}) does not exist`);
        return false;
      }),
    );
    const leftOut = extension.leftOut?.filter((name) => !(name in type.attributes)) ?? [];
    return { ...type, attributes: { ...type.attributes, ...added }, file: extension.file, ...(leftOut.length > 0 ? { leftOut } : {}) };
  });
  const merged: Models = { ...models, contentTypes: new Map([...models.contentTypes, ...extended.map((type) => [type.uid, type] as const)]) };
  const known = new Set(types.map((type) => type.uid));
  const stray = [...(models.pluginExtensions?.keys() ?? [])].filter((uid) => !known.has(uid));
  const problems = [
    ...stray.map((uid) => ({ file: models.pluginExtensions!.get(uid)!.file, message: `${uid} is not a plugin content type Folio serves (${[...known].join(', ')})` })),
    ...(extended.some((type, index) => type !== types[index]) ? findModelProblems(merged) : []),
  ];
  if (problems.length > 0) throw new ModelError(problems);
  return merged;
};
