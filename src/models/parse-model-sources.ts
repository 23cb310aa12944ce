import { parseAttribute } from './parse-attribute';
import { createFieldReader, isRawObject, type RawObject } from './raw-fields';
import type { ModelProblem } from './model-error';
import type { ModelSource } from './read-model-sources';
import type { Attribute, Component, ContentType, Models } from './types';
import type { CustomFieldOptions } from './custom-fields';

const KINDS = ['collectionType', 'singleType'] as const;
type Kind = (typeof KINDS)[number];

/** Folder and file names become part of component uids and GraphQL type names. */
const COMPONENT_PATH_PART = /^[A-Za-z][A-Za-z0-9_-]*$/;

function isKind(value: unknown): value is Kind {
  return (KINDS as readonly unknown[]).includes(value);
}

function parseJson(source: ModelSource, problems: ModelProblem[]): RawObject | undefined {
  let json: unknown;
  try {
    json = JSON.parse(source.text);
  } catch (error) {
    problems.push({ file: source.file, message: `invalid JSON: ${(error as Error).message}` });
    return undefined;
  }
  if (!isRawObject(json)) {
    problems.push({ file: source.file, message: 'must hold a JSON object' });
    return undefined;
  }
  return json;
}

function parseAttributes(file: string, json: RawObject, localized: boolean, problems: ModelProblem[], customFields: CustomFieldOptions): Record<string, Attribute> {
  const raw = json.attributes;
  if (!isRawObject(raw)) {
    problems.push({ file, message: raw === undefined ? 'attributes is missing' : 'attributes must be an object' });
    return {};
  }
  const attributes: Record<string, Attribute> = {};
  for (const [name, rawAttribute] of Object.entries(raw)) {
    const attribute = parseAttribute(rawAttribute, localized, (message) => problems.push({ file, attribute: name, message }), customFields, `${file}: attribute "${name}"`);
    if (attribute) attributes[name] = attribute;
  }
  return attributes;
}

function parseContentType(source: Extract<ModelSource, { source: 'content-type' }>, json: RawObject, problems: ModelProblem[], customFields: CustomFieldOptions): ContentType {
  const { file, apiName, folderName } = source;
  const read = createFieldReader((message) => problems.push({ file, message }));
  if (!isKind(json.kind)) {
    problems.push({ file, message: `kind must be ${KINDS.join(' or ')}, got ${JSON.stringify(json.kind)}` });
  }
  const info = read.object(json, 'info') ?? {};
  const options = read.object(json, 'options') ?? {};
  const i18n = read.object(read.object(json, 'pluginOptions') ?? {}, 'i18n', 'pluginOptions.i18n') ?? {};
  const localized = read.boolean(i18n, 'localized', 'pluginOptions.i18n.localized') ?? false;
  // Fallbacks only keep validation going so every problem is reported; a model with problems is never returned.
  const singularName = read.requiredString(info, 'singularName', 'info.singularName') ?? folderName;
  const contentType: ContentType = {
    uid: `api::${apiName}.${singularName}`,
    apiName,
    kind: isKind(json.kind) ? json.kind : 'collectionType',
    collectionName: read.requiredString(json, 'collectionName') ?? '',
    singularName,
    pluralName: read.requiredString(info, 'pluralName', 'info.pluralName') ?? '',
    displayName: read.requiredString(info, 'displayName', 'info.displayName') ?? '',
    draftAndPublish: read.boolean(options, 'draftAndPublish', 'options.draftAndPublish') ?? false,
    localized,
    attributes: parseAttributes(file, json, localized, problems, customFields),
    file,
  };
  const storage = storageOptions(read.object(read.object(json, 'pluginOptions') ?? {}, 'folio', 'pluginOptions.folio'), contentType.attributes, (message) =>
    problems.push({ file, message }),
  );
  if (storage) contentType.storage = storage;
  const description = read.string(info, 'description', 'info.description');
  return description === undefined ? contentType : { ...contentType, description };
}

/** `pluginOptions.folio.indexed` / `.searchable`: lists of the type's own attribute names (empty: none). */
function storageOptions(raw: RawObject | undefined, attributes: Record<string, Attribute>, report: (message: string) => void): ContentType['storage'] {
  if (!raw) return undefined;
  const storage: NonNullable<ContentType['storage']> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key !== 'indexed' && key !== 'searchable') {
      report(`pluginOptions.folio.${key} is not an option (indexed, searchable)`);
      continue;
    }
    if (!Array.isArray(value) || !value.every((name): name is string => typeof name === 'string')) {
      report(`pluginOptions.folio.${key} must be an array of attribute names, got ${JSON.stringify(value)}`);
      continue;
    }
    const unknown = value.filter((name) => !Object.hasOwn(attributes, name));
    if (unknown.length > 0) report(`pluginOptions.folio.${key} names ${unknown.map((name) => `"${name}"`).join(', ')}, not attributes of the type (${Object.keys(attributes).join(', ')})`);
    else storage[key] = value;
  }
  return storage;
}

function parseComponent(source: Extract<ModelSource, { source: 'component' }>, json: RawObject, problems: ModelProblem[], customFields: CustomFieldOptions): Component {
  const { file, category, name } = source;
  const read = createFieldReader((message) => problems.push({ file, message }));
  for (const [what, value] of [['category folder', category], ['file name', name]]) {
    if (!COMPONENT_PATH_PART.test(value)) {
      problems.push({ file, message: `component ${what} "${value}" must match ${COMPONENT_PATH_PART}` });
    }
  }
  const info = read.object(json, 'info') ?? {};
  return {
    uid: `${category}.${name}`,
    category,
    name,
    collectionName: read.requiredString(json, 'collectionName') ?? '',
    displayName: read.requiredString(info, 'displayName', 'info.displayName') ?? '',
    // Components carry no i18n options of their own: they follow the field that holds them.
    attributes: parseAttributes(file, json, false, problems, customFields),
    file,
  };
}

/** Turns each file into a typed model, reporting every field of the wrong shape. */
export function parseModelSources(sources: readonly ModelSource[], problems: ModelProblem[], customFields: CustomFieldOptions = {}): Models {
  const models: Models = { contentTypes: new Map(), components: new Map() };
  for (const source of sources) {
    const json = parseJson(source, problems);
    if (!json) continue;
    if (source.source === 'component') {
      const component = parseComponent(source, json, problems, customFields);
      models.components.set(component.uid, component);
      continue;
    }
    if (source.source === 'plugin-extension') {
      models.pluginExtensions ??= new Map();
      models.pluginExtensions.set(`plugin::${source.plugin}.${source.name}`, { file: source.file, attributes: parseAttributes(source.file, json, false, problems, customFields) });
      continue;
    }
    const contentType = parseContentType(source, json, problems, customFields);
    const clash = models.contentTypes.get(contentType.uid);
    if (clash) {
      problems.push({ file: source.file, message: `uid ${contentType.uid} is also declared by ${clash.file}` });
      continue;
    }
    models.contentTypes.set(contentType.uid, contentType);
  }
  return models;
}
