import { isBuiltInContentTypeUid } from './built-in-targets';
import type { Attribute, Component, ContentType, Models, PluginTypeExtension } from './types';

/**
 * Relations to what is not content of the project. A relation to an admin user (`admin::user`,
 * an "assigned to" or "owner" field) is left out of both surfaces, as Strapi's content API leaves
 * it out: Shadow CRUD is off for admin types, and REST sanitizes such relations away for every
 * users-permissions caller (Folio has no admin users for an API token to read either). A relation
 * to a plugin's content type that Folio does not serve (`plugin::form-builder.built-form`) is
 * left out too, with one warning naming how to map it (`config/plugins` `relation-targets`: a
 * content type of the project to relate to instead) or to silence it (`false`: left out on purpose).
 */

export interface RelationTargetOptions {
  /** a plugin content type's uid → a content type of the project to relate to instead, or false: left out without a warning */
  relationTargets?: Readonly<Record<string, string | false>>;
  /** told once per relation left out for a plugin's content type */
  warn?: (line: string) => void;
}

const PLUGIN_UID = /^plugin::([^.]+)\./;

/**
 * `attribute` as served, or undefined when it is left out. `where`: its file and name, for the warning;
 * `ownPlugin`: the plugin whose type the attributes extend, whose relations to its own types it serves itself.
 */
const servedAs = (attribute: Attribute, where: string, models: Models, options: RelationTargetOptions, ownPlugin?: string): Attribute | undefined => {
  if (attribute.type !== 'relation') return attribute;
  const { target } = attribute;
  if (target.startsWith('admin::')) return undefined;
  const plugin = PLUGIN_UID.exec(target)?.[1];
  if (plugin === undefined || plugin === ownPlugin || isBuiltInContentTypeUid(target) || models.contentTypes.has(target)) return attribute;
  const mapped = options.relationTargets?.[target];
  if (typeof mapped === 'string') return { ...attribute, target: mapped };
  if (mapped === undefined) {
    options.warn?.(
      `folio: ${where} is left out of both surfaces: its target ${target} is a content type of the ${plugin} plugin, not of the project's src/, which Folio does not serve. Relate it to a content type of the project instead, or leave it out without this line, in config/plugins: 'relation-targets': { config: { '${target}': 'api::<name>.<name>' } } (or false)`,
    );
  }
  return undefined;
};

const withServedRelations = <Owner extends ContentType | Component | PluginTypeExtension>(owner: Owner, models: Models, options: RelationTargetOptions, ownPlugin?: string): Owner => {
  const attributes: Record<string, Attribute> = {};
  const leftOut: string[] = [];
  let changed = false;
  for (const [name, attribute] of Object.entries(owner.attributes)) {
    const served = servedAs(attribute, `${owner.file}: attribute "${name}"`, models, options, ownPlugin);
    if (served !== attribute) changed = true;
    if (served) attributes[name] = served;
    else leftOut.push(name);
  }
  return changed ? { ...owner, attributes, ...(leftOut.length > 0 ? { leftOut } : {}) } : owner;
};

/** The models with relations to admin users and to plugin types Folio does not serve left out (or mapped), each owner naming what it left out. */
export const withServedRelationTargets = (models: Models, options: RelationTargetOptions = {}): Models => {
  const served = <Owner extends ContentType | Component | PluginTypeExtension>(owners: Map<string, Owner>) =>
    new Map([...owners].map(([uid, owner]) => [uid, withServedRelations(owner, models, options, PLUGIN_UID.exec(uid)?.[1])] as const));
  return {
    ...models,
    contentTypes: served(models.contentTypes),
    components: served(models.components),
    ...(models.pluginExtensions ? { pluginExtensions: served(models.pluginExtensions) } : {}),
  };
};
