import { defaultValueProblem } from './default-value-problem';
import { enumValueName } from './enum-values';
import type { ModelProblem } from './model-error';
import { RESERVED_ATTRIBUTE_NAMES, type Attribute, type Component, type ContentType, type Models } from './types';

const GRAPHQL_NAME_PATTERN = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** GraphQL forbids these as enum values: they would read as literals. */
const NON_ENUM_NAMES = ['true', 'false', 'null'];

/** Strapi lets a uid be generated from these. */
const UID_SOURCE_TYPES = ['string', 'text'];

function nameProblem(name: string): string | undefined {
  if (!GRAPHQL_NAME_PATTERN.test(name)) return `name must be a valid GraphQL name (${GRAPHQL_NAME_PATTERN})`;
  if (name.startsWith('__')) return 'name must not start with "__" (reserved by GraphQL introspection)';
  if ((RESERVED_ATTRIBUTE_NAMES as readonly string[]).includes(name)) return `name "${name}" is reserved`;
  return undefined;
}

/** Any value is fine if GraphQL can name it (see enum-values) and no two values get one name. */
function enumProblems(values: readonly string[]): string[] {
  const problems: string[] = [];
  const byName = new Map<string, string>();
  for (const value of values) {
    const name = enumValueName(value);
    const earlier = byName.get(name);
    if (name === '' || NON_ENUM_NAMES.includes(name)) problems.push(`enum value "${value}" cannot be named in GraphQL (it would be "${name}")`);
    else if (earlier === value) problems.push(`enum value "${value}" is listed twice`);
    else if (earlier !== undefined) problems.push(`enum values "${earlier}" and "${value}" would both be "${name}" in GraphQL`);
    else byName.set(name, value);
  }
  return problems;
}

function rangeProblems(attribute: Attribute): string[] {
  const problems: string[] = [];
  if ('min' in attribute && 'max' in attribute && attribute.min !== undefined && attribute.max !== undefined && attribute.min > attribute.max) {
    problems.push(`min (${attribute.min}) is greater than max (${attribute.max})`);
  }
  if ('minLength' in attribute && attribute.minLength !== undefined && attribute.maxLength !== undefined && attribute.minLength > attribute.maxLength) {
    problems.push(`minLength (${attribute.minLength}) is greater than maxLength (${attribute.maxLength})`);
  }
  return problems;
}

function attributeProblems(model: ContentType | Component, attribute: Attribute, isComponent: boolean): string[] {
  const problems = rangeProblems(attribute);
  switch (attribute.type) {
    case 'relation':
    case 'media':
    case 'component':
      return problems;
    case 'dynamiczone':
      return isComponent ? [...problems, 'dynamic zones are only allowed on content-types, not in components'] : problems;
    case 'morph':
      return isComponent ? [...problems, 'polymorphic relations are served on content-types only, not in components'] : problems;
    default: {
      const defaultProblem = defaultValueProblem(attribute);
      if (defaultProblem) problems.push(defaultProblem);
      if (attribute.type === 'enumeration' && attribute.enum) problems.push(...enumProblems(attribute.enum));
      if (attribute.type === 'uid' && attribute.targetField !== undefined) {
        const source = model.attributes[attribute.targetField];
        if (!source) problems.push(`targetField "${attribute.targetField}" names no attribute of this model`);
        else if (!UID_SOURCE_TYPES.includes(source.type)) {
          problems.push(`targetField "${attribute.targetField}" must name a string or text attribute, not one of type ${source.type}`);
        }
      }
      return problems;
    }
  }
}

/** Checks of one attribute at a time: its name, its values and the fields of its own model it refers to. */
export function checkAttributes(models: Models): ModelProblem[] {
  const problems: ModelProblem[] = [];
  const owners = [
    ...[...models.contentTypes.values()].map((model) => ({ model, isComponent: false })),
    ...[...models.components.values()].map((model) => ({ model, isComponent: true })),
  ];
  for (const { model, isComponent } of owners) {
    for (const [name, attribute] of Object.entries(model.attributes)) {
      const messages = [nameProblem(name), ...attributeProblems(model, attribute, isComponent)];
      for (const message of messages) if (message) problems.push({ file: model.file, attribute: name, message });
    }
  }
  return problems;
}
